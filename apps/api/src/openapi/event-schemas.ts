// The event bodies as JSON Schema (docs/api-guide.md#events): one alternative per kind of event, closed like
// the views, so that the log, the stream and (through the SDK's types) the webhook all hold to one shape.
import { EVENT_STATUSES } from '@svc/db';
import {
  ACTION_NAMES,
  KYC_EVENT_TYPES,
  SYSTEM_NOTICES,
  USER_STATUSES,
  USER_TYPES,
  type EntityName,
} from '@svc/protocol';

import { boolean, dateTime, enumOf, integer, record, ref, type Schema, string } from './schema-parts.js';

const userRecord = {
  orgUserId: string,
  orgId: integer,
  kyc: boolean,
  tnc: boolean,
  userStatus: enumOf(USER_STATUSES),
  userType: enumOf(USER_TYPES),
};

/** The `event` envelope of one kind of event: its entity, and its eventType values on KYC events. */
function envelope(entity: EntityName, eventTypes?: readonly string[]): Schema {
  return record(`The envelope of ${entity} events`, {
    orgId: integer,
    entity: { type: 'string', const: entity },
    ...(eventTypes ? { eventType: enumOf(eventTypes) } : {}),
    numRetries: { type: 'integer', minimum: 0, description: 'Redeliveries so far: 0 on the first delivery' },
    createdAt: dateTime,
    updatedAt: dateTime,
  });
}

const body = (description: string, event: Schema, data: Schema) => record(description, { event, data });

export const EVENT_SCHEMAS: Record<string, Schema> = {
  UserRecord: record('The user record of Users events', userRecord),
  KycDocumentUserRecord: record('The user record of KYC_DOC_UPLOADED, with the document it is about', {
    ...userRecord,
    docCategory: string,
    docSubCategory: string,
  }),
  ActionsData: record('A policy change: the limit or the enabled assets, and the new values', {
    name: enumOf(ACTION_NAMES),
    newValues: {
      type: 'object',
      additionalProperties: { type: 'number' },
      description: 'Asset or currency code to its new value',
    },
  }),
  SystemInformationData: record('A system notice', {
    event: enumOf(SYSTEM_NOTICES),
    entity: { type: 'string', description: 'What is concerned, e.g. a trading pair' },
    message: string,
    startTime: { type: ['string', 'null'], description: 'When it takes effect; may be null' },
    endTime: { type: ['string', 'null'], description: 'When it ends; may be null or empty' },
  }),
  EventBody: {
    description:
      "An event's body, `{event, data}`, as the webhook carries it; `event.entity` (and `event.eventType` on KYC events) says what `data` is",
    // anyOf: the alternatives exclude each other by `event.entity` and `event.eventType`, which linters do
    // not look into (they would take oneOf for overlapping).
    anyOf: [
      body('An Orders event: the order record', envelope('Orders'), ref('Order')),
      body('A Users event outside KYC: the user record', envelope('Users'), ref('UserRecord')),
      body(
        'A KYC event: the user record after the step',
        envelope(
          'Users',
          KYC_EVENT_TYPES.filter((type) => type !== 'KYC_DOC_UPLOADED'),
        ),
        ref('UserRecord'),
      ),
      body(
        'KYC_DOC_UPLOADED: the user record with the document',
        envelope('Users', ['KYC_DOC_UPLOADED']),
        ref('KycDocumentUserRecord'),
      ),
      body('An Actions event: a policy change', envelope('Actions'), ref('ActionsData')),
      body(
        'A SystemInformation event: a system notice',
        envelope('SystemInformation'),
        ref('SystemInformationData'),
      ),
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
    body: {
      ...ref('EventBody'),
      description:
        'The body as its first delivery carried it (numRetries 0, updatedAt its createdAt); a redelivery differs in those two fields only',
    },
  }),
};
