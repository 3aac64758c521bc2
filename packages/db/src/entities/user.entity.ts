import type { KycEventType, UserStatus, UserType } from '@svc/protocol';
import { Column, Entity, JoinColumn, ManyToOne, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

import { Organisation } from './organisation.entity.js';
import { CreatedAt, UpdatedAt } from './columns.js';

/** Where a user is in KYC: NONE until the org starts it, else the last KYC event. */
export type KycState = 'NONE' | KycEventType;

@Entity({ name: 'users' })
@Unique('users_org_user', ['orgId', 'orgUserId'])
export class User {
  /** Internal; bigint, so pg returns it as a string. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id' })
  organisation?: Organisation;

  @Column({ name: 'org_user_id', type: 'text' })
  orgUserId!: string;

  @Column({ type: 'boolean' })
  kyc!: boolean;

  @Column({ type: 'boolean' })
  tnc!: boolean;

  @Index()
  @Column({ name: 'user_status', type: 'text' })
  userStatus!: UserStatus;

  @Column({ name: 'user_type', type: 'text', default: 'CONSUMER' })
  userType!: UserType;

  @Column({ name: 'kyc_state', type: 'text', default: 'NONE' })
  kycState!: KycState;

  /** The submitted KYC form, as the org sent it. */
  @Column({ name: 'kyc_form', type: 'jsonb', nullable: true })
  kycForm!: object | null;

  /** When the current KYC step expires (a form waiting for review, say); null when nothing is pending. */
  @Index()
  @Column({ name: 'kyc_expires_at', type: 'timestamptz', precision: 3, nullable: true })
  kycExpiresAt!: Date | null;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
