import type { EntityName, KycEventType } from '@svc/protocol';
import { Column, Entity, Generated, JoinColumn, ManyToOne, Index, PrimaryColumn } from 'typeorm';

import { Organisation } from './organisation.entity.js';
import { CreatedAt, UpdatedAt } from './columns.js';

export const EVENT_STATUSES = ['PENDING', 'DELIVERED', 'FAILED', 'SKIPPED'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/**
 * An event for an organisation (docs/api-guide.md#events), written in the transaction of the change that
 * caused it. Its id is the svc-event-id header, stable across retries; `data` is the body's data exactly as
 * delivered.
 */
@Entity({ name: 'events' })
@Index('events_org_created', ['orgId', 'createdAt', 'position'])
@Index('events_org_stream', ['orgId', 'txid', 'position'])
@Index('events_org_filters', ['orgId', 'status', 'entity', 'eventType', 'createdAt', 'position'])
// (org_id, data->>'orgUserId', created_at, id) of KYC events, for a user's KYC history on the dashboard: an
// expression TypeORM cannot declare, so the migration (1795900000000) owns it.
@Index('events_org_user_kyc', { synchronize: false })
// The events a user or an order concerns (data->>'orgUserId', data->>'id' of Orders events), for the
// events list's search: expressions, so the migration (1797400000000) owns them.
@Index('events_org_user', { synchronize: false })
@Index('events_org_order', { synchronize: false })
// The PENDING events by next_attempt_at, the webhooks worker's queue: a partial index (migration 1796300000000).
@Index('events_due', { synchronize: false })
export class Event {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id' })
  organisation?: Organisation;

  @Column({ type: 'text' })
  entity!: EntityName;

  @Column({ name: 'event_type', type: 'text', nullable: true })
  eventType!: KycEventType | null;

  /** json, not jsonb: the text is kept as written, so receivers get the fields in the record's order. */
  @Column({ type: 'json' })
  data!: object;

  @Column({ type: 'text', default: 'PENDING' })
  status!: EventStatus;

  /** Redeliveries so far; the first attempt is 0. */
  @Column({ name: 'num_retries', type: 'integer', default: 0 })
  numRetries!: number;

  @CreatedAt()
  createdAt!: Date;

  /**
   * While PENDING: when the webhooks worker may make its next attempt (now for a new event; a retry's
   * backoff, or the time its receiver asked for). The worker's queue (docs/decisions.md, "Webhooks: one
   * queue for every attempt").
   */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', precision: 3, default: () => 'now()' })
  nextAttemptAt!: Date;

  /**
   * While PENDING: when the organisation asked for its scheduled retry at once ("Retry now"); the worker
   * logs that attempt as a redelivery (`manual`) and clears it with the attempt's outcome. Null otherwise.
   */
  @Column({ name: 'retry_asked_at', type: 'timestamptz', precision: 3, nullable: true })
  retryAskedAt!: Date | null;

  /**
   * Insertion order (a sequence, bigint as a string): orders the events of one transaction, and breaks
   * ties in the log. Not commit order: see `txid`.
   */
  @Column({ type: 'bigint' })
  @Generated('increment')
  position!: string;

  /**
   * The id of the transaction that wrote the row (PostgreSQL's xid8 as a bigint, from the migration's
   * events_txid()). The event stream delivers rows in (txid, position) order once every transaction below
   * txid has ended, so a transaction that commits late is never skipped (docs/decisions.md, "Events: the
   * stream is gapless and without duplicates").
   */
  @Column({ type: 'bigint', default: () => 'events_txid()' })
  txid!: string;

  @UpdatedAt()
  updatedAt!: Date;
}
