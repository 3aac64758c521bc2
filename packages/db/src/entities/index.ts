import { ApiKey } from './api-key.entity.js';
import { AttemptCounter } from './attempt-counter.entity.js';
import { AuditEntry } from './audit-entry.entity.js';
import { DashboardLink } from './dashboard-link.entity.js';
import { DashboardSession } from './dashboard-session.entity.js';
import { Event } from './event.entity.js';
import { IdempotencyKey } from './idempotency-key.entity.js';
import { EventStreamLease } from './event-stream.entity.js';
import { KycDocument } from './kyc-document.entity.js';
import { KycReview } from './kyc-review.entity.js';
import { OAuthClient } from './oauth-client.entity.js';
import { OAuthToken } from './oauth-token.entity.js';
import { OperatorSession, OperatorToken } from './operator-credential.entity.js';
import { Operator } from './operator.entity.js';
import { OrderFill } from './order-fill.entity.js';
import { Order } from './order.entity.js';
import { Organisation } from './organisation.entity.js';
import { Position } from './position.entity.js';
import { PriceLevel } from './price-level.entity.js';
import { Price } from './price.entity.js';
import { PriceTick } from './price-tick.entity.js';
import { SandboxClock } from './sandbox-clock.entity.js';
import { SystemNotice, TradingHalt } from './system-notice.entity.js';
import { UsedSignature } from './used-signature.entity.js';
import { User } from './user.entity.js';
import { WebhookAttempt } from './webhook-attempt.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { WebhookFailure } from './webhook-failure.entity.js';
import { WebhookRecovery, WebhookRecoveryItem } from './webhook-recovery.entity.js';
import { WebhookRedelivery } from './webhook-redelivery.entity.js';

export { AMOUNT_SCALE } from './columns.js';
export * from './api-key.entity.js';
export * from './attempt-counter.entity.js';
export * from './audit-entry.entity.js';
export * from './dashboard-link.entity.js';
export * from './dashboard-session.entity.js';
export * from './event.entity.js';
export * from './event-stream.entity.js';
export * from './idempotency-key.entity.js';
export * from './kyc-document.entity.js';
export * from './kyc-review.entity.js';
export * from './oauth-client.entity.js';
export * from './oauth-token.entity.js';
export * from './operator-credential.entity.js';
export * from './operator.entity.js';
export * from './order-fill.entity.js';
export * from './order.entity.js';
export * from './organisation.entity.js';
export * from './position.entity.js';
export * from './price-level.entity.js';
export * from './price.entity.js';
export * from './price-tick.entity.js';
export * from './sandbox-clock.entity.js';
export * from './system-notice.entity.js';
export * from './used-signature.entity.js';
export * from './user.entity.js';
export * from './webhook-attempt.entity.js';
export * from './webhook-endpoint.entity.js';
export * from './webhook-failure.entity.js';
export * from './webhook-recovery.entity.js';
export * from './webhook-redelivery.entity.js';

export const ENTITIES = [
  Organisation,
  ApiKey,
  OAuthClient,
  OAuthToken,
  UsedSignature,
  User,
  KycDocument,
  KycReview,
  Event,
  EventStreamLease,
  AuditEntry,
  WebhookEndpoint,
  WebhookAttempt,
  WebhookFailure,
  WebhookRecovery,
  WebhookRecoveryItem,
  WebhookRedelivery,
  Order,
  OrderFill,
  Position,
  Price,
  PriceTick,
  PriceLevel,
  SystemNotice,
  TradingHalt,
  DashboardLink,
  DashboardSession,
  Operator,
  OperatorSession,
  OperatorToken,
  AttemptCounter,
  IdempotencyKey,
  SandboxClock,
];
