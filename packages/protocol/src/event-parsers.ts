// Parsers of webhook event bodies: check a received body against the record schemas (record-schemas.ts)
// before anything trusts it, and throw EventParseError naming the first bad field.
import {
  type EntityName,
  type KycEvent,
  type KycEventEnvelope,
  type KycEventType,
  type NonKycEventEnvelope,
  type WebhookEvent,
} from './event-types.js';
import { schemaCheck } from './json-schema.js';
import {
  ACTIONS_DATA_SCHEMA,
  EVENT_ENVELOPE_SCHEMA,
  KYC_DOCUMENT_USER_SCHEMA,
  ORDER_SCHEMA,
  SYSTEM_INFORMATION_DATA_SCHEMA,
  USER_SCHEMA,
  type ActionsData,
  type KycDocumentUser,
  type Order,
  type SystemInformationData,
  type User,
} from './record-schemas.js';
import { EventParseError, fail, fields, join, object } from './validate.js';

export { EventParseError };

const checkUser = schemaCheck(USER_SCHEMA);
const checkKycDocumentUser = schemaCheck(KYC_DOCUMENT_USER_SCHEMA);
const checkOrder = schemaCheck(ORDER_SCHEMA);
const checkActionsData = schemaCheck(ACTIONS_DATA_SCHEMA);
const checkSystemInformationData = schemaCheck(SYSTEM_INFORMATION_DATA_SCHEMA);

// eventType is checked apart (parseEnvelope): whether it may be there at all depends on the entity.
const { eventType: eventTypeSchema, ...envelopeProperties } = EVENT_ENVELOPE_SCHEMA.properties;
const checkEnvelope = schemaCheck({ ...EVENT_ENVELOPE_SCHEMA, properties: envelopeProperties });
const checkEventType = schemaCheck(eventTypeSchema);

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
  return { ...envelope, eventType: checkEventType(eventType, eventTypePath) };
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
