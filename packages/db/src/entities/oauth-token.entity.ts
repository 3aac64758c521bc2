import { Column, Entity, JoinColumn, ManyToOne, Index, PrimaryGeneratedColumn } from 'typeorm';

import { OAuthClient } from './oauth-client.entity.js';
import { CreatedAt } from './columns.js';

/** An issued access token, stored as the SHA-256 of its value (the value has 256 bits of entropy). */
@Entity({ name: 'oauth_tokens' })
export class OAuthToken {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index({ unique: true })
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Index()
  @Column({ name: 'client_id', type: 'uuid' })
  clientId!: string;

  @ManyToOne(() => OAuthClient, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'client_id' })
  client?: OAuthClient;

  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt!: Date;

  @CreatedAt()
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', precision: 3, nullable: true })
  revokedAt!: Date | null;
}
