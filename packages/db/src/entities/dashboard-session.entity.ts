import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

import { CreatedAt } from './columns.js';
import { Organisation } from './organisation.entity.js';

/** A signed-in dashboard session: its cookie's value is stored as a SHA-256 hash (docs/dashboard.md). */
@Entity({ name: 'dashboard_sessions' })
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

  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt!: Date;

  /** Signed out, or ended with all the organisation's sessions; null while it lasts. */
  @Column({ name: 'ended_at', type: 'timestamptz', precision: 3, nullable: true })
  endedAt!: Date | null;

  @CreatedAt()
  createdAt!: Date;
}
