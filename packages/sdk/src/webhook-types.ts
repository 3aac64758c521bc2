// What the api's webhook endpoints take and answer (types.ts has the rest), mirroring the api's views and
// held against its OpenAPI document by test/openapi-drift.spec.ts.
import type { PageParams } from './types.js';

export type WebhookStatus = 'ACTIVE' | 'CHALLENGE_FAILED';

/** The organisation's webhook endpoint; never its secret. */
export interface Webhook {
  readonly url: string;
  readonly status: WebhookStatus;
  readonly challengePassed: boolean;
  readonly challengeError: string | null;
  /** Set while the receiver asked for time (429 or 503 with Retry-After): no attempt before it. */
  readonly pausedUntil: string | null;
  /** How the endpoint fares lately; the dashboard shows the same state. */
  readonly health: WebhookHealth;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * NO_ENDPOINT: its challenge failed, nothing is sent. FAILING: the last 3 attempts or more failed, none
 * delivered since. DEGRADED: a recent attempt failed, an event of the last 24 hours is still FAILED, or the
 * receiver asked for time. HEALTHY: none of these.
 */
export type WebhookHealthState = 'HEALTHY' | 'DEGRADED' | 'FAILING' | 'NO_ENDPOINT';

/** The endpoint's health, from its latest attempts (at most 20, since its registration, in the last 24 h). */
export interface WebhookHealth {
  readonly state: WebhookHealthState;
  /** Why, in one sentence. */
  readonly reason: string;
  readonly recentAttempts: number;
  readonly recentFailures: number;
  /** Failed attempts since the latest delivered one. */
  readonly consecutiveFailures: number;
  /** Events of the last 24 hours still FAILED. */
  readonly failedEvents: number;
  /** The latest failed attempt of those looked at. */
  readonly lastError: {
    readonly at: string;
    readonly errorKind: DeliveryErrorKind | null;
    readonly statusCode: number | null;
    readonly response: string;
  } | null;
}

export interface RegisterWebhookParams {
  readonly url: string;
  /** 16 to 512 characters, chosen by you; events are signed with it. */
  readonly secret: string;
}

export interface DeletedWebhook {
  readonly url: string;
  readonly deleted: true;
}

export type DeliveryErrorKind =
  | 'http_status'
  | 'timeout'
  | 'connection_refused'
  | 'connection_reset'
  | 'connection_closed'
  | 'dns_failure'
  | 'blocked_address'
  | 'invalid_url'
  | 'https_required'
  | 'host_not_allowed'
  | 'tls_error'
  | 'network_error';

/** One delivery attempt of an event. */
export interface WebhookDelivery {
  readonly eventId: string;
  readonly url: string;
  readonly numRetries: number;
  /** True for an attempt asked for with redeliver(). */
  readonly manual: boolean;
  readonly attemptedAt: string;
  readonly durationMs: number;
  readonly delivered: boolean;
  readonly statusCode: number | null;
  readonly errorKind: DeliveryErrorKind | null;
  /** The first 1 KB of the answer, or the error's text. */
  readonly response: string | null;
}

export interface ListDeliveriesParams extends PageParams {
  readonly eventId?: string;
  readonly delivered?: boolean;
}

export interface Redelivery {
  readonly eventId: string;
  readonly status: 'QUEUED';
}

export interface RecoverWebhooksParams {
  /**
   * FAILED events created at or after this are redelivered: ISO 8601 with a zone (e.g.
   * `2030-01-31T22:00:00Z`), not in the future and within the last 24 hours (the delivery window).
   */
  readonly since: string;
}

/** PENDING until the events are chosen, RUNNING while their attempts are queued, then COMPLETED. */
export type WebhookRecoveryStatus = 'PENDING' | 'RUNNING' | 'COMPLETED';

/** A recovery of FAILED events and how far it got. */
export interface WebhookRecovery {
  readonly id: string;
  readonly since: string;
  readonly status: WebhookRecoveryStatus;
  /** Events chosen (0 while PENDING). */
  readonly total: number;
  /** Of total, waiting for their attempt. */
  readonly queued: number;
  /** Of total, delivered (HTTP 200). */
  readonly delivered: number;
  /** Of total, whose one attempt failed or could not be made. */
  readonly failed: number;
  readonly createdAt: string;
  /** When the events were chosen. */
  readonly startedAt: string | null;
  readonly completedAt: string | null;
}
