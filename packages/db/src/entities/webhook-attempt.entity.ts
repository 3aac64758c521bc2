import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

import { Event } from './event.entity.js';

/**
 * One delivery attempt of an event, as the delivery log shows it (docs/decisions.md, "Webhooks: attempts,
 * retries and the window").
 */
@Entity({ name: 'webhook_attempts' })
@Index('webhook_attempts_org_id', ['orgId', 'id'])
@Index('webhook_attempts_org_attempted', ['orgId', 'attemptedAt'])
// Every organisation's attempts per hour and day (the console's home).
@Index('webhook_attempts_attempted', ['attemptedAt'])
export class WebhookAttempt {
  /** Internal; bigint, so pg returns it as a string. Orders the log. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Index()
  @Column({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  /** Where it was sent. */
  @Column({ type: 'text' })
  url!: string;

  /** `event.numRetries` of the body sent. */
  @Column({ name: 'num_retries', type: 'integer' })
  numRetries!: number;

  /** Asked for by the organisation (redelivery), not a scheduled attempt. */
  @Column({ type: 'boolean', default: false })
  manual!: boolean;

  /**
   * `event.updatedAt` of the body sent; with numRetries and the event's row it rebuilds the body exactly.
   * Null for attempts recorded before it was kept.
   */
  @Column({ name: 'event_updated_at', type: 'timestamptz', precision: 3, nullable: true })
  eventUpdatedAt!: Date | null;

  /** When the attempt started: also its svc-timestamp. */
  @Column({ name: 'attempted_at', type: 'timestamptz', precision: 3 })
  attemptedAt!: Date;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs!: number;

  /** Null when no status line arrived. */
  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  /** Null when delivered; `http_status` for an answer other than 200, else what went wrong. */
  @Column({ name: 'error_kind', type: 'text', nullable: true })
  errorKind!: string | null;

  /** The first 1 KB of the answer, or the error's text. */
  @Column({ type: 'text' })
  response!: string;

  @Column({ type: 'boolean' })
  delivered!: boolean;
}
