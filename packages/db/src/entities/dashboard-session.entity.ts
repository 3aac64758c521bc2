import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

import { ApiKey } from './api-key.entity.js';
import { CreatedAt } from './columns.js';
import { OAuthClient } from './oauth-client.entity.js';
import { Organisation } from './organisation.entity.js';

/** A signed-in dashboard session: its cookie's value is stored as a SHA-256 hash (docs/dashboard.md). */
@Entity({ name: 'dashboard_sessions' })
@Check('dashboard_sessions_one_creator', 'num_nonnulls("api_key_id", "oauth_client_id") <= 1')
export class DashboardSession {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index()
  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id' })
  organisation?: Organisation;

  @Index({ unique: true })
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  /** Copied from the link that started it. */
  @Column({ type: 'text', array: true })
  permissions!: string[];

  /** Copied from the link that started it. */
  @Column({ type: 'text', array: true })
  pages!: string[];

  /**
   * Copied from the link that started it: the API key, or the OAuth client whose token was used, that
   * asked for the link. The session may hold only what that credential may do, and lasts only while it
   * is not revoked.
   */
  @Column({ name: 'api_key_id', type: 'uuid', nullable: true })
  apiKeyId!: string | null;

  @ManyToOne(() => ApiKey, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'api_key_id' })
  apiKey?: ApiKey;

  @Column({ name: 'oauth_client_id', type: 'uuid', nullable: true })
  oauthClientId!: string | null;

  @ManyToOne(() => OAuthClient, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'oauth_client_id' })
  oauthClient?: OAuthClient;

  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt!: Date;

  /** Signed out, or ended with all the organisation's sessions; null while it lasts. */
  @Column({ name: 'ended_at', type: 'timestamptz', precision: 3, nullable: true })
  endedAt!: Date | null;

  @CreatedAt()
  createdAt!: Date;
}
