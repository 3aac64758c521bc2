// What the webhook routes answer (webhooks/*.view.ts and the services' small answers), as JSON Schema: the
// endpoint and its health, its delivery attempts, redelivery and recovery; closed like every view
// (schemas.ts). It stands with the webhooks feature, whose health vocabulary it states.
import { WEBHOOK_RECOVERY_STATUSES } from '@svc/db';
import { ATTEMPT_ERROR_KINDS } from '@svc/webhook-sender';

import { DELIVERY_STATES } from '../webhooks/delivery-state.js';
import { ENDPOINT_HEALTH_STATES, FAILING_STREAK, RECENT_ATTEMPTS } from '../webhooks/endpoint-health.js';
import { FAILED_COUNT_CAP } from '../webhooks/webhook-health.repository.js';
import {
  boolean,
  dateTime,
  enumOf,
  integer,
  orNull,
  record,
  ref,
  type Schema,
  string,
  uuid,
} from './schema-parts.js';

/** A failed attempt, as the health and an event's delivery show it. */
const attemptError = (description: string) =>
  record(description, {
    at: dateTime,
    errorKind: {
      type: ['string', 'null'],
      enum: [...ATTEMPT_ERROR_KINDS, null],
      description: 'Why the attempt failed, as in the delivery log',
    },
    statusCode: orNull(integer),
    response: { ...string, description: "The first 1 KB of the receiver's answer, or the error's text" },
  });

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
    health: ref('WebhookHealth'),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  WebhookHealth: record(
    'How the endpoint fares, from its latest attempts (docs/api-guide.md#the-webhooks-health); the dashboard and the operator console show the same state',
    {
      state: {
        ...enumOf(ENDPOINT_HEALTH_STATES),
        description: `NO_ENDPOINT: its challenge failed, nothing is sent. FAILING: the last ${FAILING_STREAK} attempts or more failed, none delivered since. DEGRADED: not failing, but one of the recent attempts failed, an event of the last 24 hours is still FAILED, or the receiver asked for time. HEALTHY: none of these`,
      },
      reason: { ...string, description: 'Why, in one sentence' },
      recentAttempts: {
        type: 'integer',
        minimum: 0,
        maximum: RECENT_ATTEMPTS,
        description: `The attempts looked at: the latest ${RECENT_ATTEMPTS} at most, since the webhook was registered and in the last 24 hours`,
      },
      recentFailures: { type: 'integer', minimum: 0, description: 'Of those, how many failed' },
      consecutiveFailures: {
        type: 'integer',
        minimum: 0,
        description: 'Of those, the failed ones since the latest delivered one',
      },
      failedEvents: {
        type: 'integer',
        minimum: 0,
        description: `Events of the last 24 hours still FAILED (counted up to ${FAILED_COUNT_CAP}); a recovery brings them back`,
      },
      lastError: {
        ...orNull(attemptError('The latest failed attempt of those looked at')),
        description: 'Null when none of the attempts looked at failed',
      },
    },
  ),
  EventDelivery: record("Where the event's webhook delivery stands (docs/api-guide.md#an-events-delivery)", {
    state: {
      ...enumOf(DELIVERY_STATES),
      description:
        'PENDING: its first attempt is still to be made. RETRYING: an attempt failed and the next is scheduled (nextAttemptAt); a redelivery asked for now makes it at once. DELIVERED. FAILED: its retries or its 24-hour window are over. SKIPPED: no active webhook when its turn came',
    },
    nextAttemptAt: {
      ...orNull(dateTime),
      description: 'When the worker makes its next attempt, while PENDING or RETRYING; else null',
    },
    lastError: {
      ...orNull(attemptError('The latest failed attempt')),
      description: 'While RETRYING, the latest failed attempt; else null',
    },
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
