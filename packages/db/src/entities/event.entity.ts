import type { EntityName, KycEventType } from '@svc/protocol';
import { Column, Entity, JoinColumn, ManyToOne, Index, PrimaryColumn } from 'typeorm';

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
@Index('events_org_created', ['orgId', 'createdAt'])
// (org_id, data->>'orgUserId', created_at, id) of KYC events, for a user's KYC history on the dashboard: an
// expression TypeORM cannot declare, so the migration (1795900000000) owns it.
@Index('events_org_user_kyc', { synchronize: false })
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

  @UpdatedAt()
  updatedAt!: Date;
}
