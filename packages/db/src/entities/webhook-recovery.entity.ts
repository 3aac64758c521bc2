import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

import { CreatedAt } from './columns.js';
import { Event } from './event.entity.js';
import { Organisation } from './organisation.entity.js';

/**
 * PENDING until the worker has chosen the events (its job), RUNNING while their attempts are queued,
 * COMPLETED once each has had its one attempt (or could not have it).
 */
export const WEBHOOK_RECOVERY_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED'] as const;
export type WebhookRecoveryStatus = (typeof WEBHOOK_RECOVERY_STATUSES)[number];

/**
 * An organisation's request to redeliver its FAILED events since a time (docs/decisions.md, "Webhooks:
 * redelivery and recovery"). One unfinished recovery per organisation at a time.
 */
@Entity({ name: 'webhook_recoveries' })
@Index('webhook_recoveries_unfinished', ['orgId'], { unique: true, where: `"status" <> 'COMPLETED'` })
@Index('webhook_recoveries_org_created', ['orgId', 'createdAt'])
export class WebhookRecovery {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id' })
  organisation?: Organisation;

  /** FAILED events created at or after this (and inside the delivery window) are redelivered. */
  @Column({ type: 'timestamptz', precision: 3 })
  since!: Date;

  @Column({ type: 'text', default: 'PENDING' })
  status!: WebhookRecoveryStatus;

  /** Events chosen; set when the worker chose them. */
  @Column({ type: 'integer', default: 0 })
  total!: number;

  /** Of `total`, redelivered with a 200. */
  @Column({ type: 'integer', default: 0 })
  delivered!: number;

  /** Of `total`, whose one attempt failed or could not be made (no ACTIVE endpoint, window over). */
  @Column({ type: 'integer', default: 0 })
  failed!: number;

  @CreatedAt()
  createdAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz', precision: 3, nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'completed_at', type: 'timestamptz', precision: 3, nullable: true })
  completedAt!: Date | null;
}

export const WEBHOOK_RECOVERY_OUTCOMES = ['DELIVERED', 'FAILED'] as const;
export type WebhookRecoveryOutcome = (typeof WEBHOOK_RECOVERY_OUTCOMES)[number];

/** One event of a recovery; its outcome is set once, so each event is counted (and sent) once. */
@Entity({ name: 'webhook_recovery_items' })
// Deleting events (retention) finds their items by this.
@Index('webhook_recovery_items_event', ['eventId'])
export class WebhookRecoveryItem {
  @PrimaryColumn({ name: 'recovery_id', type: 'uuid' })
  recoveryId!: string;

  @ManyToOne(() => WebhookRecovery, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'recovery_id' })
  recovery?: WebhookRecovery;

  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  /** Null while its attempt is queued. */
  @Column({ type: 'text', nullable: true })
  outcome!: WebhookRecoveryOutcome | null;
}
