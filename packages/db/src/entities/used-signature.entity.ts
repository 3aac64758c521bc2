import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { ApiKey } from './api-key.entity.js';

/**
 * A (key, signature) pair accepted once (docs/api-guide.md#api-key-signing): a second use inside the window
 * is a replay. Rows expire with the window and are swept.
 */
@Entity({ name: 'used_signatures' })
export class UsedSignature {
  @PrimaryColumn({ name: 'api_key_id', type: 'uuid' })
  apiKeyId!: string;

  @ManyToOne(() => ApiKey, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'api_key_id' })
  apiKey?: ApiKey;

  @PrimaryColumn({ type: 'text' })
  signature!: string;

  @Index()
  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt!: Date;
}
