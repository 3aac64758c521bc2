import { Column, Entity, JoinColumn, ManyToOne, Index, PrimaryGeneratedColumn } from 'typeorm';

import { Organisation } from './organisation.entity.js';
import { CreatedAt } from './columns.js';

@Entity({ name: 'oauth_clients' })
export class OAuthClient {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index()
  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id' })
  organisation?: Organisation;

  @Index({ unique: true })
  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  /** A slow hash (scrypt) of the client secret, which is shown once. */
  @Column({ name: 'secret_hash', type: 'text' })
  secretHash!: string;

  /** Granted scopes, MODULE:PERMISSION. */
  @Column({ type: 'text', array: true })
  scopes!: string[];

  @Column({ type: 'text', default: '' })
  label!: string;

  @CreatedAt()
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', precision: 3, nullable: true })
  revokedAt!: Date | null;

  /** When it last authenticated a request (to the minute: written at most once a minute); null if never. */
  @Column({ name: 'last_used_at', type: 'timestamptz', precision: 3, nullable: true })
  lastUsedAt!: Date | null;
}
