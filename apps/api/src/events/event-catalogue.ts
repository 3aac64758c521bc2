// Every kind of event an organisation receives, with the JSON Schema of its body and an example body
// (docs/api-guide.md#events): what the dashboard's event catalogue shows and what its test event sends.
// Built from the protocol package's value sets, so a new value there shows here.
import {
  ACTION_NAMES,
  KYC_EVENT_TYPES,
  ORDER_REJECTION_REASONS,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
  SYSTEM_NOTICES,
  USER_STATUSES,
  USER_TYPES,
  type EntityName,
  type KycEventType,
} from '@svc/protocol';

type Schema = Record<string, unknown>;

export interface CatalogueEntry {
  /** `Users` or `Users/KYC_COMPLETED`: how the catalogue and its links name the kind. */
  readonly key: string;
  readonly entity: EntityName;
  readonly eventType?: KycEventType;
  /** When it is sent. */
  readonly description: string;
  /** JSON Schema (2020-12) of the whole body, `{event, data}`. */
  readonly schema: Schema;
  /** A body as it would be delivered to `orgId`. */
  example(orgId: number): { event: Record<string, unknown>; data: Record<string, unknown> };
}

const string = { type: 'string' };
const integer = { type: 'integer' };
const number = { type: 'number' };
const boolean = { type: 'boolean' };
const dateTime = { type: 'string', format: 'date-time' };
const enumOf = (values: readonly string[]) => ({ type: 'string', enum: [...values] });
const object = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: 'object',
  required,
  properties,
});

const EXAMPLE_TIME = '2026-01-15T10:30:00.000Z';

const userFields: Record<string, Schema> = {
  orgUserId: string,
  orgId: integer,
  kyc: boolean,
  tnc: boolean,
  userStatus: enumOf(USER_STATUSES),
  userType: enumOf(USER_TYPES),
};

const orderSchema = object({
  id: integer,
  orgId: integer,
  clientOrderId: { type: 'string', format: 'uuid' },
  orgUserId: string,
  symbol: { type: 'string', pattern: '^[A-Z0-9]+_[A-Z0-9]+$' },
  side: enumOf(ORDER_SIDES),
  type: enumOf(ORDER_TYPES),
  quantity: number,
  quoteQuantity: number,
  filled: number,
  status: enumOf(ORDER_STATUSES),
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
  rejectionReason: {
    type: ['string', 'null'],
    description: `null, or why the order was refused: ${ORDER_REJECTION_REASONS.join(', ')} (new reasons may appear)`,
  },
  createdAt: dateTime,
  updatedAt: dateTime,
});

function envelopeSchema(entity: EntityName, eventType?: KycEventType): Schema {
  return object({
    orgId: integer,
    entity: { const: entity },
    ...(eventType ? { eventType: { const: eventType } } : {}),
    numRetries: { type: 'integer', minimum: 0, maximum: 3 },
    createdAt: dateTime,
    updatedAt: dateTime,
  });
}

function envelope(orgId: number, entity: EntityName, eventType?: KycEventType) {
  return {
    orgId,
    entity,
    ...(eventType ? { eventType } : {}),
    numRetries: 0,
    createdAt: EXAMPLE_TIME,
    updatedAt: EXAMPLE_TIME,
  };
}

function body(entity: EntityName, data: Schema, eventType?: KycEventType): Schema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...object({ event: envelopeSchema(entity, eventType), data }),
  };
}

const KYC_DESCRIPTIONS: Readonly<Record<KycEventType, string>> = {
  KYC_PENDING: 'A KYC process began (the first document or the form); userStatus is PENDING.',
  KYC_DOC_UPLOADED: 'A document was uploaded; data adds docCategory and docSubCategory.',
  KYC_FORM_SUBMITTED: 'The KYC form was submitted; it is not approved yet.',
  KYC_COMPLETED: 'KYC was approved: kyc becomes true and userStatus ACTIVE.',
  KYC_REJECTED: 'KYC was reviewed and rejected; userStatus is REJECTED.',
  KYC_RFI: 'KYC was reviewed and more information is requested (the request is in the KYC view).',
  KYC_EXPIRED: 'The KYC process waited too long at one step and expired.',
};

const KYC_STATUS: Readonly<Partial<Record<KycEventType, string>>> = {
  KYC_COMPLETED: 'ACTIVE',
  KYC_REJECTED: 'REJECTED',
};

function kycEntry(eventType: KycEventType): CatalogueEntry {
  const document = eventType === 'KYC_DOC_UPLOADED';
  const fields = document ? { ...userFields, docCategory: string, docSubCategory: string } : userFields;
  return {
    key: `Users/${eventType}`,
    entity: 'Users',
    eventType,
    description: KYC_DESCRIPTIONS[eventType],
    schema: body('Users', object({ ...fields, kyc: { const: eventType === 'KYC_COMPLETED' } }), eventType),
    example: (orgId) => ({
      event: envelope(orgId, 'Users', eventType),
      data: {
        orgUserId: 'user-42',
        orgId,
        kyc: eventType === 'KYC_COMPLETED',
        tnc: true,
        userStatus: KYC_STATUS[eventType] ?? 'PENDING',
        userType: 'CONSUMER',
        ...(document ? { docCategory: 'IDENTITY', docSubCategory: 'PASSPORT' } : {}),
      },
    }),
  };
}

export const EVENT_CATALOGUE: readonly CatalogueEntry[] = [
  {
    key: 'Users',
    entity: 'Users',
    description: 'A user was created (or its terms and conditions flag changed).',
    schema: body('Users', object(userFields)),
    example: (orgId) => ({
      event: envelope(orgId, 'Users'),
      data: {
        orgUserId: 'user-42',
        orgId,
        kyc: false,
        tnc: true,
        userStatus: 'PENDING',
        userType: 'CONSUMER',
      },
    }),
  },
  ...KYC_EVENT_TYPES.map(kycEntry),
  {
    key: 'Orders',
    entity: 'Orders',
    description: 'An order reached a status; data is the order record at that moment.',
    schema: body('Orders', orderSchema),
    example: (orgId) => ({
      event: envelope(orgId, 'Orders'),
      data: {
        id: 1001,
        orgId,
        clientOrderId: '5b0e4a8e-2c0f-4f57-9a43-0d6f3f1c2a11',
        orgUserId: 'user-42',
        symbol: 'BTC_EUR',
        side: 'BUY',
        type: 'MARKET',
        quantity: 0.01,
        quoteQuantity: 500,
        filled: 0.01,
        status: 'COMPLETED',
        price: 50000,
        averagePrice: 50000,
        estimatedPrice: 50000,
        baseAveragePrice: 50000,
        commissionRate: 0.0015,
        vatRate: 0.21,
        commissionAmount: 0.75,
        vatAmount: 0.1575,
        netExecutedAmount: 500,
        totalExecutedAmount: 500.9075,
        commissionAsset: 'EUR',
        rejectionReason: null,
        createdAt: EXAMPLE_TIME,
        updatedAt: EXAMPLE_TIME,
      },
    }),
  },
  {
    key: 'Actions',
    entity: 'Actions',
    description: "An operator changed the organisation's policy: one event per changed limit or asset set.",
    schema: body(
      'Actions',
      object({ name: enumOf(ACTION_NAMES), newValues: { type: 'object', additionalProperties: number } }),
    ),
    example: (orgId) => ({
      event: envelope(orgId, 'Actions'),
      data: { name: 'QUOTE_LIMIT', newValues: { EUR: 10000 } },
    }),
  },
  {
    key: 'SystemInformation',
    entity: 'SystemInformation',
    description:
      'Operators published a notice to every organisation (maintenance, an asset enabled or disabled).',
    schema: body(
      'SystemInformation',
      object({
        event: enumOf(SYSTEM_NOTICES),
        entity: string,
        message: string,
        startTime: { type: ['string', 'null'] },
        endTime: { type: ['string', 'null'] },
      }),
    ),
    example: (orgId) => ({
      event: envelope(orgId, 'SystemInformation'),
      data: {
        event: 'MAINTENANCE_ALERTS',
        entity: 'BTC_EUR',
        message: 'Trading of BTC_EUR pauses for maintenance',
        startTime: EXAMPLE_TIME,
        endTime: null,
      },
    }),
  },
];

export function catalogueEntry(key: string): CatalogueEntry | undefined {
  return EVENT_CATALOGUE.find((entry) => entry.key === key);
}
