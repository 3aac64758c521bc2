// The event bodies as JSON Schema (docs/api-guide.md#events): one alternative per kind of event, closed like
// the views, so that the log, the stream and (through the SDK's types) the webhook all hold to one shape.
import { EVENT_STATUSES } from '@svc/db';
import {
  ACTIONS_DATA_SCHEMA,
  eventBodySchema,
  eventEnvelopeSchema,
  KYC_DOCUMENT_USER_SCHEMA,
  KYC_EVENT_TYPES,
  SYSTEM_INFORMATION_DATA_SCHEMA,
  USER_SCHEMA,
  type EntityName,
} from '@svc/protocol';

import { enumOf, record, ref, type Schema } from './schema-parts.js';

const body = (description: string, entity: EntityName, data: Schema) =>
  eventBodySchema(description, eventEnvelopeSchema(entity), data);

// The records are the protocol package's schemas as they are (the Order is a view too: schemas.ts).
export const EVENT_SCHEMAS: Record<string, Schema> = {
  UserRecord: USER_SCHEMA,
  KycDocumentUserRecord: KYC_DOCUMENT_USER_SCHEMA,
  ActionsData: ACTIONS_DATA_SCHEMA,
  SystemInformationData: SYSTEM_INFORMATION_DATA_SCHEMA,
  EventBody: {
    description:
      "An event's body, `{event, data}`, as the webhook carries it; `event.entity` (and `event.eventType` on KYC events) says what `data` is",
    // anyOf: the alternatives exclude each other by `event.entity` and `event.eventType`, which linters do
    // not look into (they would take oneOf for overlapping).
    anyOf: [
      body('An Orders event: the order record', 'Orders', ref('Order')),
      body('A Users event outside KYC: the user record', 'Users', ref('UserRecord')),
      eventBodySchema(
        'A KYC event: the user record after the step',
        eventEnvelopeSchema(
          'Users',
          KYC_EVENT_TYPES.filter((type) => type !== 'KYC_DOC_UPLOADED'),
        ),
        ref('UserRecord'),
      ),
      eventBodySchema(
        'KYC_DOC_UPLOADED: the user record with the document',
        eventEnvelopeSchema('Users', ['KYC_DOC_UPLOADED']),
        ref('KycDocumentUserRecord'),
      ),
      body('An Actions event: a policy change', 'Actions', ref('ActionsData')),
      body('A SystemInformation event: a system notice', 'SystemInformation', ref('SystemInformationData')),
    ],
  },
  EventLogEntry: record('An event of the log', {
    id: {
      type: 'string',
      format: 'uuid',
      description: 'The event id, sent as svc-event-id with the webhook',
    },
    status: {
      ...enumOf(EVENT_STATUSES),
      description:
        'Webhook delivery: PENDING (being delivered or retried), DELIVERED, FAILED (retries over), SKIPPED (no active webhook)',
    },
    delivery: ref('EventDelivery'),
    body: {
      ...ref('EventBody'),
      description:
        'The body as its first delivery carried it (numRetries 0, updatedAt its createdAt); a redelivery differs in those two fields only',
    },
  }),
};
