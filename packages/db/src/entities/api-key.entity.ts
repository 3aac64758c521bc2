import { Column, Entity, JoinColumn, ManyToOne, Index, PrimaryGeneratedColumn } from 'typeorm';

import { Organisation } from './organisation.entity.js';
import { CreatedAt } from './columns.js';

/** An organisation's API key; several may be live at once (rotation). */
@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index()
  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id' })
  organisation?: Organisation;

  /** The public X-API-KEY value. */
  @Index({ unique: true })
  @Column({ type: 'text' })
  key!: string;

  /** The secret, AES-256-GCM encrypted under the master key: HMAC needs it in clear. */
  @Column({ name: 'secret_ciphertext', type: 'text' })
  secretCiphertext!: string;

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
