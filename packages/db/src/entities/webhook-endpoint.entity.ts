import { Column, Entity, JoinColumn, OneToOne, PrimaryGeneratedColumn } from 'typeorm';

import { CreatedAt, UpdatedAt } from './columns.js';
import { Organisation } from './organisation.entity.js';

/** ACTIVE receives events; CHALLENGE_FAILED was registered but did not answer the challenge. */
export const WEBHOOK_ENDPOINT_STATUSES = ['ACTIVE', 'CHALLENGE_FAILED'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/**
 * An organisation's webhook receiver: one per organisation (docs/decisions.md, "Webhooks: registration and
 * endpoint changes").
 */
@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpoint {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** Unique: the one-to-one relation below makes it so. */
  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @OneToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id' })
  organisation?: Organisation;

  @Column({ type: 'text' })
  url!: string;

  /** The customer's secret, AES-256-GCM encrypted under the master key: signing needs it in clear. */
  @Column({ name: 'secret_ciphertext', type: 'text' })
  secretCiphertext!: string;

  @Column({ type: 'text' })
  status!: WebhookEndpointStatus;

  /** Why the challenge failed; null when it passed. */
  @Column({ name: 'challenge_error', type: 'text', nullable: true })
  challengeError!: string | null;

  /**
   * The receiver asked for time (429 or 503 with Retry-After): no attempt to it before this. Cleared when
   * an endpoint is registered anew.
   */
  @Column({ name: 'paused_until', type: 'timestamptz', precision: 3, nullable: true })
  pausedUntil!: Date | null;

  /** When the last failure e-mail went out: at most one per endpoint per interval. */
  @Column({ name: 'last_failure_email_at', type: 'timestamptz', precision: 3, nullable: true })
  lastFailureEmailAt!: Date | null;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
