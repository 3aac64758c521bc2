// Prometheus metrics of this process (docs/operations.md, "The api"): prom-client's process metrics, the
// duration of every HTTP request (by method, route pattern and status; an event stream is counted as open
// instead, its lifetime is not a request's duration), the database pool, and counters
// of what the business and the guard decided: orders by status and rejection reason, KYC transitions,
// authentication failures by reason, failed webhook challenges. Each application has its own registry,
// so several can run in one process (the tests do). Label values come from fixed lists, never ids or URLs.
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { KycState } from '@svc/db';
import { type KycEventType, ORDER_REJECTION_REASONS, ORDER_STATUSES, type OrderStatus } from '@svc/protocol';
import { createMetricsRegistry, observeDatabasePool } from '@svc/runtime';
import { ATTEMPT_ERROR_KINDS, type ChallengeResult } from '@svc/webhook-sender';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge } from 'prom-client';
import { DataSource } from 'typeorm';

import type { RequestLog } from '../common/logger.js';
import { RequestDurationHistogram } from './request-durations.js';

/** The route label of a request no route matched: raw URLs would make a series per probe. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** Why the guard refused a request (docs/operations.md lists what each means). */
export type AuthFailureReason =
  | 'missing_credentials'
  | 'missing_header'
  | 'malformed_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_far_ahead'
  | 'bad_signature'
  | 'unknown_api_key'
  | 'replayed_signature'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'operator_refused'
  | 'operator_forbidden';

@Injectable()
export class MetricsService implements OnModuleDestroy {
  readonly registry = createMetricsRegistry();

  private readonly requestDuration = new RequestDurationHistogram(
    'http_request_duration_seconds',
    'Time from receiving an HTTP request to sending the answer, by method, route pattern and status',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    this.registry,
  );

  private readonly orders = new Counter({
    name: 'orders_total',
    help: 'Orders placed (replays of a clientOrderId not counted), by status and rejection reason (none when COMPLETED)',
    labelNames: ['status', 'rejection_reason'] as const,
    registers: [this.registry],
  });

  private readonly kycTransitions = new Counter({
    name: 'kyc_transitions_total',
    help: "KYC state changes committed, by the user's state before (from) and the event it moved to (to)",
    labelNames: ['from', 'to'] as const,
    registers: [this.registry],
  });

  private readonly authFailures = new Counter({
    name: 'auth_failures_total',
    help: 'Requests the authentication guard refused (401), by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly challengeFailures = new Counter({
    name: 'webhook_challenge_failures_total',
    help: "Webhook registrations whose challenge did not pass, by reason: the sender's error kind, or wrong_answer",
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly openStreams = new Gauge({
    name: 'event_streams_open',
    help: 'Event streams (GET /api/v1/events/stream) this process is serving now',
    registers: [this.registry],
  });

  /** The requests answered by an event stream: their lifetime is not a request duration. */
  private readonly streamRequests = new WeakSet<FastifyRequest>();

  constructor(dataSource: DataSource) {
    observeDatabasePool(this.registry, dataSource);
  }

  /** Times every request Fastify answers, including 404s and refusals by the guard. */
  measure(requests: RequestLog): void {
    requests.onAnswered((request, reply) => {
      if (!this.streamRequests.has(request)) this.observeRequest(request, reply);
    });
  }

  private observeRequest(request: FastifyRequest, reply: FastifyReply): void {
    this.requestDuration.observe(
      request.method,
      // The pattern (/api/v1/user/:orgUserId), never the URL: no ids in labels.
      request.routeOptions.url ?? UNMATCHED_ROUTE,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  }

  /** `request` is answered by an event stream from now on; `streamClosed` when it ends. */
  streamOpened(request: FastifyRequest): void {
    this.streamRequests.add(request);
    this.openStreams.inc();
  }

  streamClosed(): void {
    this.openStreams.dec();
  }

  /** A new order committed. */
  orderPlaced(status: OrderStatus, rejectionReason: string | null): void {
    this.orders.inc({
      status: ORDER_STATUSES.includes(status) ? status : 'other',
      rejection_reason: known(ORDER_REJECTION_REASONS, rejectionReason),
    });
  }

  /** KYC transitions committed, in order. */
  kycTransitioned(transitions: readonly { from: KycState; to: KycEventType }[]): void {
    for (const { from, to } of transitions) this.kycTransitions.inc({ from, to });
  }

  authFailed(reason: AuthFailureReason): void {
    this.authFailures.inc({ reason });
  }

  /** A registration's challenge that did not pass: the attempt's error kind, or a 200 without the string. */
  challengeFailed(challenge: ChallengeResult): void {
    const kind = challenge.attempt.errorKind;
    this.challengeFailures.inc({ reason: kind === null ? 'wrong_answer' : known(ATTEMPT_ERROR_KINDS, kind) });
  }

  /** The Prometheus text exposition. */
  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  onModuleDestroy(): void {
    this.registry.clear();
  }
}

/** `value` when the list has it, `none` for null, else `other`: a bounded label whatever comes. */
function known(list: readonly string[], value: string | null): string {
  if (value === null) return 'none';
  return list.includes(value) ? value : 'other';
}
