import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

import { ApiKey } from './api-key.entity.js';
import { CreatedAt } from './columns.js';
import { OAuthClient } from './oauth-client.entity.js';
import { Organisation } from './organisation.entity.js';

/**
 * A single-use sign-in link to an organisation's dashboard (docs/dashboard.md), stored as the SHA-256 of
 * its token: opening it starts a session with the link's permissions and lifetime.
 */
@Entity({ name: 'dashboard_links' })
@Check('dashboard_links_one_creator', 'num_nonnulls("api_key_id", "oauth_client_id") <= 1')
export class DashboardLink {
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

  /** What the session may do beyond reading (the dashboard's permission names). */
  @Column({ type: 'text', array: true })
  permissions!: string[];

  /** The dashboard's pages the session may see (docs/dashboard.md#what-a-session-may-do). */
  @Column({ type: 'text', array: true })
  pages!: string[];

  /**
   * Who asked for the link: the API key, or the OAuth client whose token was used. The session it starts
   * may hold only what that credential may do, and lasts only while it is not revoked.
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

  /** How long the session it starts lasts. */
  @Column({ name: 'session_seconds', type: 'integer' })
  sessionSeconds!: number;

  /** The link itself is refused after this. */
  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt!: Date;

  /** When it was opened: a link starts one session only. */
  @Column({ name: 'used_at', type: 'timestamptz', precision: 3, nullable: true })
  usedAt!: Date | null;

  @CreatedAt()
  createdAt!: Date;
}
