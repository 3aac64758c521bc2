// Parsers of webhook event bodies: check a received body against the types of event-types.ts before
// anything trusts it, and throw EventParseError naming the first bad field.
import {
  ACTION_NAMES,
  ENTITY_NAMES,
  KYC_EVENT_TYPES,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
  SYSTEM_NOTICES,
  USER_STATUSES,
  USER_TYPES,
  type ActionsData,
  type EntityName,
  type KycDocumentUser,
  type KycEvent,
  type KycEventEnvelope,
  type KycEventType,
  type NonKycEventEnvelope,
  type Order,
  type SystemInformationData,
  type User,
  type WebhookEvent,
} from './event-types.js';
import {
  EventParseError,
  boolean,
  fail,
  fields,
  integer,
  nonNegativeInteger,
  join,
  nullable,
  number,
  object,
  oneOf,
  recordOf,
  string,
  timestamp,
  type Check,
} from './validate.js';

export { EventParseError };

const userFields = {
  orgUserId: string,
  orgId: integer,
  kyc: boolean,
  tnc: boolean,
  userStatus: oneOf(USER_STATUSES),
  userType: oneOf(USER_TYPES),
};

const checkUser: Check<User> = object(userFields);

const checkKycDocumentUser: Check<KycDocumentUser> = object({
  ...userFields,
  docCategory: string,
  docSubCategory: string,
});

const checkOrder: Check<Order> = object({
  id: integer,
  orgId: integer,
  clientOrderId: string,
  orgUserId: string,
  symbol: string,
  side: oneOf(ORDER_SIDES),
  type: oneOf(ORDER_TYPES),
  quantity: number,
  quoteQuantity: number,
  filled: number,
  status: oneOf(ORDER_STATUSES),
  price: number,
  averagePrice: number,
  estimatedPrice: number,
  baseAveragePrice: number,
  commissionRate: number,
  vatRate: number,
  commissionAmount: number,
  vatAmount: number,
  netExecutedAmount: number,
  totalExecutedAmount: number,
  commissionAsset: string,
  rejectionReason: nullable(string),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const checkActionsData: Check<ActionsData> = object({
  name: oneOf(ACTION_NAMES),
  newValues: recordOf(number),
});

// startTime and endTime are left as text: the API guide gives them no format, and endTime may be ''.
const checkSystemInformationData: Check<SystemInformationData> = object({
  event: oneOf(SYSTEM_NOTICES),
  entity: string,
  message: string,
  startTime: nullable(string),
  endTime: nullable(string),
});

const checkEnvelope = object({
  orgId: integer,
  entity: oneOf(ENTITY_NAMES),
  // Automatic retries stop at MAX_EVENT_RETRIES; each manual redelivery counts too, so any count is valid.
  numRetries: nonNegativeInteger,
  createdAt: timestamp,
  updatedAt: timestamp,
});

/** One member per entity, so that a switch on `entity` narrows it. */
type NonKycEnvelopes = { [E in EntityName]: NonKycEventEnvelope<E> }[EntityName];

function parseEnvelope(value: unknown, path: string): NonKycEnvelopes | KycEventEnvelope {
  const envelope: NonKycEnvelopes = checkEnvelope(value, path);
  const { eventType } = fields(value, path);
  if (eventType === undefined) return envelope;
  const eventTypePath = join(path, 'eventType');
  if (envelope.entity !== 'Users') {
    throw new EventParseError(eventTypePath, `not allowed on ${envelope.entity} events, only on KYC events`);
  }
  return { ...envelope, eventType: oneOf(KYC_EVENT_TYPES)(eventType, eventTypePath) };
}

/** The user record of a KYC event must agree with it: kyc is true exactly at KYC_COMPLETED. */
function checkKycFlag(user: User, eventType: KycEventType, path: string): void {
  const expected = eventType === 'KYC_COMPLETED';
  if (user.kyc !== expected) fail(join(path, 'kyc'), `${expected} on ${eventType} events`, String(user.kyc));
}

function parseData(event: NonKycEnvelopes | KycEventEnvelope, data: unknown): WebhookEvent {
  const path = 'data';
  switch (event.entity) {
    case 'Orders':
      return { event, data: checkOrder(data, path) };
    case 'Actions':
      return { event, data: checkActionsData(data, path) };
    case 'SystemInformation':
      return { event, data: checkSystemInformationData(data, path) };
    case 'Users': {
      if (event.eventType === undefined) return { event, data: checkUser(data, path) };
      const user =
        event.eventType === 'KYC_DOC_UPLOADED' ? checkKycDocumentUser(data, path) : checkUser(data, path);
      checkKycFlag(user, event.eventType, path);
      // TypeScript cannot pair each envelope of the union with its data type; the ternary above does.
      return { event, data: user } as KycEvent;
    }
  }
}

const checkBody = object({ event: parseEnvelope, data: (value: unknown) => value });

/** Checks a webhook body (already JSON-parsed); throws EventParseError naming the first bad field. */
export function parseWebhookEvent(value: unknown): WebhookEvent {
  const body = checkBody(value, '');
  return { ...body, ...parseData(body.event, body.data) };
}

/** Like parseWebhookEvent, from the raw body text. */
export function parseWebhookEventText(text: string): WebhookEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EventParseError('', `invalid JSON: ${(error as Error).message}`, { cause: error });
  }
  return parseWebhookEvent(value);
}

export function parseUser(value: unknown): User {
  return checkUser(value, '');
}

export function parseKycDocumentUser(value: unknown): KycDocumentUser {
  return checkKycDocumentUser(value, '');
}

export function parseOrder(value: unknown): Order {
  return checkOrder(value, '');
}

export function parseActionsData(value: unknown): ActionsData {
  return checkActionsData(value, '');
}

export function parseSystemInformationData(value: unknown): SystemInformationData {
  return checkSystemInformationData(value, '');
}
