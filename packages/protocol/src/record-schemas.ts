// The records of the wire format (docs/api-guide.md#events), each written once as JSON Schema: the order,
// the user, the data of Actions and SystemInformation events, and the event envelope. Their TypeScript
// types, the event parsers, the api's OpenAPI components and event catalogue are derived from these, so
// a field added here reaches all of them. Property order is the order in which the fields are sent.
import {
  ACTION_NAMES,
  ENTITY_NAMES,
  KYC_EVENT_TYPES,
  MAX_EVENT_RETRIES,
  ORDER_REJECTION_REASONS,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_CANCEL_REASONS,
  ORDER_TYPES,
  SYSTEM_NOTICES,
  TIME_IN_FORCE,
  USER_STATUSES,
  USER_TYPES,
  type EntityName,
  type KycEventType,
} from './event-types.js';
import { enumSchema, recordSchema, type FromSchema, type JsonSchema } from './json-schema.js';

// ---- the shared parts

const EXAMPLE_TIME = '2026-01-15T10:30:00.000Z';

const text = <const E extends string>(example: E) => ({ type: 'string', examples: [example] }) as const;

const integer = <const E extends number>(example: E) => ({ type: 'integer', examples: [example] }) as const;

/** An amount or a rate: a JSON number written with exactly the digits the service stores. */
const amount = <const E extends number>(example: E) =>
  ({
    type: 'number',
    description: 'A JSON number with exactly the stored digits',
    examples: [example],
  }) as const;

const timestamp = {
  type: 'string',
  format: 'date-time',
  description: 'ISO 8601, UTC',
  examples: [EXAMPLE_TIME],
} as const;

// ---- the records

export const USER_SCHEMA = recordSchema('The user record: the data of Users events', {
  orgUserId: text('user-42'),
  orgId: integer(42),
  kyc: {
    type: 'boolean',
    description: 'True only once KYC is approved: exactly at KYC_COMPLETED among the KYC events',
  },
  tnc: { type: 'boolean', examples: [true] },
  userStatus: enumSchema(USER_STATUSES),
  userType: enumSchema(USER_TYPES),
});

export const KYC_DOCUMENT_USER_SCHEMA = recordSchema(
  'The user record of KYC_DOC_UPLOADED, with the document it is about',
  {
    ...USER_SCHEMA.properties,
    docCategory: { type: 'string', description: 'What the document is for', examples: ['IDENTITY'] },
    docSubCategory: { type: 'string', description: 'Which document it is', examples: ['PASSPORT'] },
  },
);

/** An optional amount of the order lifecycle: null where the order's type has none. */
const optionalAmount = <const E extends number>(description: string, example: E) =>
  ({ type: ['number', 'null'], description, examples: [example] }) as const;

// A MARKET order's record is the contract's 25 fields and nothing more; an order of another type adds
// timeInForce, limitPrice, stopPrice, expireAt, cancelReason and replaces, null where they do not apply
// (docs/api-guide.md#orders).
export const ORDER_SCHEMA = recordSchema(
  'An order, as answered and as sent in Orders events; amounts with exactly their stored digits',
  {
    id: integer(1001),
    orgId: integer(42),
    clientOrderId: {
      type: 'string',
      format: 'uuid',
      description: "The client's idempotency key",
      examples: ['5b0e4a8e-2c0f-4f57-9a43-0d6f3f1c2a11'],
    },
    orgUserId: text('user-42'),
    symbol: {
      type: 'string',
      description: 'BASE_QUOTE: an asset code, an underscore and a currency code',
      examples: ['BTC_EUR'],
    },
    side: enumSchema(ORDER_SIDES),
    type: enumSchema(ORDER_TYPES),
    timeInForce: {
      ...enumSchema(TIME_IN_FORCE),
      description:
        'How long the order may rest (absent on MARKET orders, which fill in full at once or are refused)',
    },
    limitPrice: optionalAmount('LIMIT and STOP_LIMIT: the worst price the order fills at', 49000),
    stopPrice: optionalAmount('STOP and STOP_LIMIT: the last price that triggers the order', 51000),
    expireAt: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When a DAY or GTD order expires (ISO 8601, UTC); null for GTC, IOC and FOK',
      examples: [EXAMPLE_TIME],
    },
    quantity: amount(0.01),
    quoteQuantity: amount(500),
    filled: amount(0.01),
    status: { ...enumSchema(ORDER_STATUSES), examples: ['COMPLETED'] },
    price: amount(50000),
    averagePrice: amount(50000),
    estimatedPrice: amount(50000),
    baseAveragePrice: amount(50000),
    commissionRate: amount(0.0015),
    vatRate: amount(0.21),
    commissionAmount: amount(0.75),
    vatAmount: amount(0.1575),
    netExecutedAmount: amount(500),
    totalExecutedAmount: amount(500.9075),
    commissionAsset: text('EUR'),
    rejectionReason: {
      type: ['string', 'null'],
      description: `Why the order is REJECTED or FAILED, null otherwise: ${ORDER_REJECTION_REASONS.join(', ')} (new reasons may appear)`,
    },
    cancelReason: {
      type: ['string', 'null'],
      description: `Why the order is CANCELLED, null otherwise: ${ORDER_CANCEL_REASONS.join(', ')}, or the check that failed at a later fill (a rejection reason)`,
    },
    replaces: {
      type: ['integer', 'null'],
      description: 'The id of the order this one replaced, or null',
      examples: [1000],
    },
    createdAt: timestamp,
    updatedAt: timestamp,
  },
  ['timeInForce', 'limitPrice', 'stopPrice', 'expireAt', 'cancelReason', 'replaces'],
);

export const ACTIONS_DATA_SCHEMA = recordSchema(
  'A policy change: the limit or the enabled assets, and the new values',
  {
    name: { ...enumSchema(ACTION_NAMES), examples: ['QUOTE_LIMIT'] },
    newValues: {
      type: 'object',
      additionalProperties: { type: 'number' },
      description: 'Asset or currency code to its new value',
      examples: [{ EUR: 10000 }],
    },
  },
);

// startTime and endTime are left as text: the API guide gives them no format, and endTime may be ''.
export const SYSTEM_INFORMATION_DATA_SCHEMA = recordSchema('A system notice', {
  event: enumSchema(SYSTEM_NOTICES),
  entity: {
    type: 'string',
    description: 'What is concerned, e.g. a trading pair',
    examples: ['BTC_EUR'],
  },
  message: text('Trading of BTC_EUR pauses for maintenance'),
  startTime: {
    type: ['string', 'null'],
    description: 'When it takes effect; may be null',
    examples: [EXAMPLE_TIME],
  },
  endTime: { type: ['string', 'null'], description: 'When it ends; may be null or empty' },
});

/** The `event` field of every webhook body. */
export const EVENT_ENVELOPE_SCHEMA = recordSchema(
  'The envelope of an event: whose it is, what it is about, and its delivery',
  {
    orgId: integer(42),
    entity: enumSchema(ENTITY_NAMES),
    eventType: {
      ...enumSchema(KYC_EVENT_TYPES),
      description: 'Set on KYC events only, which all have entity Users',
    },
    numRetries: {
      type: 'integer',
      minimum: 0,
      description: `Redeliveries so far: 0 on the first delivery. Automatic retries take it to ${MAX_EVENT_RETRIES} at most; each manual redelivery (or recovery) adds one more`,
    },
    createdAt: timestamp,
    updatedAt: timestamp,
  },
  ['eventType'],
);

/** Every record that is an event's data, by the name of its type. */
export const RECORD_SCHEMAS = {
  User: USER_SCHEMA,
  KycDocumentUser: KYC_DOCUMENT_USER_SCHEMA,
  Order: ORDER_SCHEMA,
  ActionsData: ACTIONS_DATA_SCHEMA,
  SystemInformationData: SYSTEM_INFORMATION_DATA_SCHEMA,
} as const;

/**
 * The envelope of one kind of event, as a schema: `entity` fixed, `eventType` one of `eventTypes` on KYC
 * events and absent on the others.
 */
export function eventEnvelopeSchema(entity: EntityName, eventTypes?: readonly KycEventType[]): JsonSchema {
  const properties = Object.entries(EVENT_ENVELOPE_SCHEMA.properties).flatMap(
    ([name, property]): [string, JsonSchema][] => {
      if (name === 'entity') return [[name, { type: 'string', const: entity }]];
      if (name !== 'eventType') return [[name, property]];
      return eventTypes ? [[name, { ...property, enum: eventTypes }]] : [];
    },
  );
  return recordSchema(`The envelope of ${entity} events`, Object.fromEntries(properties));
}

/** The schema of a whole body, `{event, data}`. */
export function eventBodySchema(description: string, event: JsonSchema, data: JsonSchema): JsonSchema {
  return recordSchema(description, { event, data });
}

// ---- the types
// Interfaces rather than aliases, so that the compiler and editors name them (Order, not its fields).
/* eslint-disable @typescript-eslint/no-empty-object-type -- each is its schema's type under a name */

export interface User extends FromSchema<typeof USER_SCHEMA> {}
/** The data of KYC_DOC_UPLOADED: the category fields tell several uploaded files apart. */
export interface KycDocumentUser extends FromSchema<typeof KYC_DOCUMENT_USER_SCHEMA> {}
export interface Order extends FromSchema<typeof ORDER_SCHEMA> {}
export interface ActionsData extends FromSchema<typeof ACTIONS_DATA_SCHEMA> {}
export interface SystemInformationData extends FromSchema<typeof SYSTEM_INFORMATION_DATA_SCHEMA> {}
