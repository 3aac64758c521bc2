import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

import { CreatedAt } from './columns.js';
import { Event } from './event.entity.js';
import { WebhookRecovery } from './webhook-recovery.entity.js';

/**
 * One attempt asked for outside the retry schedule: a redelivery, or one event of a recovery. The worker
 * takes due rows from here as it takes due PENDING events (docs/decisions.md, "Webhooks: one queue for
 * every attempt") and deletes each once its attempt is recorded.
 */
@Entity({ name: 'webhook_redeliveries' })
@Index('webhook_redeliveries_due', ['dueAt'])
// Deleting events (retention) finds their redeliveries by this.
@Index('webhook_redeliveries_event', ['eventId'])
export class WebhookRedelivery {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  /** The recovery this attempt is part of, which counts its outcome; null for a single redelivery. */
  @Column({ name: 'recovery_id', type: 'uuid', nullable: true })
  recoveryId!: string | null;

  @ManyToOne(() => WebhookRecovery, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'recovery_id' })
  recovery?: WebhookRecovery;

  /** When the attempt is due: at once, or later when its endpoint was busy or asked for time. */
  @Column({ name: 'due_at', type: 'timestamptz', precision: 3, default: () => 'now()' })
  dueAt!: Date;

  @CreatedAt()
  createdAt!: Date;
}
