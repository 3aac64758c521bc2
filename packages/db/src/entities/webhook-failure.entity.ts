import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';

import { Event } from './event.entity.js';

/**
 * An event that failed for good (FAILED), waiting to be listed in its organisation's failure e-mail;
 * `emailedAt` is set once it was (at most one e-mail per endpoint per interval, docs/decisions.md, "Webhooks:
 * attempts, retries and the window").
 */
@Entity({ name: 'webhook_failures' })
@Index('webhook_failures_unreported', ['orgId'], { where: '"emailed_at" IS NULL' })
@Index('webhook_failures_org_failed', ['orgId', 'failedAt'])
@Index('webhook_failures_failed', ['failedAt'])
export class WebhookFailure {
  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @OneToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @Column({ name: 'failed_at', type: 'timestamptz', precision: 3 })
  failedAt!: Date;

  @Column({ name: 'emailed_at', type: 'timestamptz', precision: 3, nullable: true })
  emailedAt!: Date | null;
}
