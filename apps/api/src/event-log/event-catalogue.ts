// Every kind of event an organisation receives, with the JSON Schema of its body and an example body
// (docs/api-guide.md#events): what the dashboard's event catalogue shows and what its test event sends.
// Built from the protocol package's record schemas and their examples, so a field or a value added there
// shows here.
import {
  ACTIONS_DATA_SCHEMA,
  eventBodySchema,
  eventEnvelopeSchema,
  KYC_DOCUMENT_USER_SCHEMA,
  KYC_EVENT_TYPES,
  ORDER_SCHEMA,
  schemaExample,
  SYSTEM_INFORMATION_DATA_SCHEMA,
  USER_SCHEMA,
  type EntityName,
  type JsonSchema,
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

function envelopeSchema(entity: EntityName, eventType?: KycEventType): JsonSchema {
  return eventEnvelopeSchema(entity, eventType ? [eventType] : undefined);
}

/** The schema of a body, standalone: the envelope of its kind and `data`. */
function body(entity: EntityName, data: JsonSchema, eventType?: KycEventType): Schema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...eventBodySchema(`A ${eventType ?? entity} event`, envelopeSchema(entity, eventType), data),
  };
}

function envelope(orgId: number, entity: EntityName, eventType?: KycEventType) {
  return { ...(schemaExample(envelopeSchema(entity, eventType)) as Record<string, unknown>), orgId };
}

/** The schema's example record, for `orgId` when the record has one. */
function record(schema: JsonSchema, orgId: number, fields: Record<string, unknown> = {}) {
  const example = schemaExample(schema) as Record<string, unknown>;
  return { ...example, ...('orgId' in example ? { orgId } : {}), ...fields };
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
  const schema = eventType === 'KYC_DOC_UPLOADED' ? KYC_DOCUMENT_USER_SCHEMA : USER_SCHEMA;
  const kyc = eventType === 'KYC_COMPLETED';
  return {
    key: `Users/${eventType}`,
    entity: 'Users',
    eventType,
    description: KYC_DESCRIPTIONS[eventType],
    // The data's schema says what kyc is at this event: it tells KYC_COMPLETED from the others.
    schema: body(
      'Users',
      { ...schema, properties: { ...schema.properties, kyc: { type: 'boolean', const: kyc } } },
      eventType,
    ),
    example: (orgId) => ({
      event: envelope(orgId, 'Users', eventType),
      data: record(schema, orgId, { kyc, userStatus: KYC_STATUS[eventType] ?? 'PENDING' }),
    }),
  };
}

export const EVENT_CATALOGUE: readonly CatalogueEntry[] = [
  {
    key: 'Users',
    entity: 'Users',
    description: 'A user was created (or its terms and conditions flag changed).',
    schema: body('Users', USER_SCHEMA),
    example: (orgId) => ({ event: envelope(orgId, 'Users'), data: record(USER_SCHEMA, orgId) }),
  },
  ...KYC_EVENT_TYPES.map(kycEntry),
  {
    key: 'Orders',
    entity: 'Orders',
    description: 'An order reached a status; data is the order record at that moment.',
    schema: body('Orders', ORDER_SCHEMA),
    example: (orgId) => ({ event: envelope(orgId, 'Orders'), data: record(ORDER_SCHEMA, orgId) }),
  },
  {
    key: 'Actions',
    entity: 'Actions',
    description: "An operator changed the organisation's policy: one event per changed limit or asset set.",
    schema: body('Actions', ACTIONS_DATA_SCHEMA),
    example: (orgId) => ({ event: envelope(orgId, 'Actions'), data: record(ACTIONS_DATA_SCHEMA, orgId) }),
  },
  {
    key: 'SystemInformation',
    entity: 'SystemInformation',
    description:
      'Operators published a notice to every organisation (maintenance, an asset enabled or disabled).',
    schema: body('SystemInformation', SYSTEM_INFORMATION_DATA_SCHEMA),
    example: (orgId) => ({
      event: envelope(orgId, 'SystemInformation'),
      data: record(SYSTEM_INFORMATION_DATA_SCHEMA, orgId),
    }),
  },
];

export function catalogueEntry(key: string): CatalogueEntry | undefined {
  return EVENT_CATALOGUE.find((entry) => entry.key === key);
}
