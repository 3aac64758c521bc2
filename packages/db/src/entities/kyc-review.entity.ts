import type { KycEventType } from '@svc/protocol';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

import { CreatedAt } from './columns.js';
import { User } from './user.entity.js';

/** The KYC events an operator's decision emits. */
export type KycDecisionEvent = Extract<KycEventType, 'KYC_COMPLETED' | 'KYC_REJECTED' | 'KYC_RFI'>;

/** An operator's decision on a user's KYC: the user's review history, newest last. */
@Entity({ name: 'kyc_reviews' })
@Index('kyc_reviews_user', ['userId', 'id'])
@Index('kyc_reviews_event', ['eventId'])
export class KycReview {
  /** Internal; bigint, so pg returns it as a string. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ name: 'event_type', type: 'text' })
  eventType!: KycDecisionEvent;

  /** The approval note, the rejection reason or what the user must provide; null for a bare approval. */
  @Column({ type: 'text', nullable: true })
  message!: string | null;

  /** Who decided (the operator's label). */
  @Column({ type: 'text' })
  reviewer!: string;

  /** The KYC event the decision emitted. */
  @Column({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @CreatedAt()
  createdAt!: Date;
}
