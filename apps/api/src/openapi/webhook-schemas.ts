// What the webhook routes answer (webhooks/*.view.ts and the services' small answers), as JSON Schema: the
// endpoint, its delivery attempts, redelivery and recovery; closed like every view (schemas.ts).
import { WEBHOOK_RECOVERY_STATUSES } from '@svc/db';
import { ATTEMPT_ERROR_KINDS } from '@svc/webhook-sender';

import {
  boolean,
  dateTime,
  enumOf,
  integer,
  orNull,
  record,
  type Schema,
  string,
  uuid,
} from './schema-parts.js';

export const WEBHOOK_SCHEMAS: Record<string, Schema> = {
  Webhook: record("The organisation's webhook endpoint; never its secret", {
    url: string,
    status: enumOf(['ACTIVE', 'CHALLENGE_FAILED']),
    challengePassed: boolean,
    challengeError: orNull(string),
    pausedUntil: {
      ...orNull(dateTime),
      description:
        'Set while the receiver asked for time (429 or 503 with Retry-After): no attempt before it; else null',
    },
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  DeletedWebhook: record('The webhook that was removed', {
    url: string,
    deleted: { type: 'boolean', const: true },
  }),
  WebhookDelivery: record('One delivery attempt of an event', {
    eventId: uuid,
    url: string,
    numRetries: integer,
    manual: { type: 'boolean', description: 'True for an attempt asked for with redeliver' },
    attemptedAt: dateTime,
    durationMs: integer,
    delivered: boolean,
    statusCode: orNull(integer),
    errorKind: {
      type: ['string', 'null'],
      enum: [...ATTEMPT_ERROR_KINDS, null],
      description: 'Why the attempt failed; null when it was delivered',
    },
    response: {
      ...orNull(string),
      description: "The first 1 KB of the receiver's answer, or the error's text",
    },
  }),
  Redelivery: record('The event is queued for one more delivery', {
    eventId: uuid,
    status: enumOf(['QUEUED']),
  }),
  WebhookRecovery: record('A recovery of FAILED events and how far it got', {
    id: uuid,
    since: { ...dateTime, description: 'FAILED events created at or after this (and inside the window)' },
    status: {
      ...enumOf(WEBHOOK_RECOVERY_STATUSES),
      description:
        'PENDING until the events are chosen, RUNNING while their attempts are queued, COMPLETED once each had its attempt',
    },
    total: { type: 'integer', minimum: 0, description: 'Events chosen (0 while PENDING)' },
    queued: { type: 'integer', minimum: 0, description: 'Of total, waiting for their attempt' },
    delivered: { type: 'integer', minimum: 0, description: 'Of total, delivered (HTTP 200)' },
    failed: {
      type: 'integer',
      minimum: 0,
      description: 'Of total, whose attempt failed or could not be made (no ACTIVE webhook, window over)',
    },
    createdAt: dateTime,
    startedAt: { ...orNull(dateTime), description: 'When the events were chosen' },
    completedAt: orNull(dateTime),
  }),
};
