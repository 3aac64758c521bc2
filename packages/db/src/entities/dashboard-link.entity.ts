import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

import { CreatedAt } from './columns.js';
import { Organisation } from './organisation.entity.js';

/**
 * A single-use sign-in link to an organisation's dashboard (docs/dashboard.md), stored as the SHA-256 of
 * its token: opening it starts a session with the link's permissions and lifetime.
 */
@Entity({ name: 'dashboard_links' })
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
