import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { CreatedAt } from './columns.js';
import { Organisation } from './organisation.entity.js';

/**
 * An organisation's `Idempotency-Key` (docs/api-guide.md#idempotent-retries): claimed by the first request
 * that carries it, then holding that request's answer for 24 hours, replayed to every repeat of the request.
 * A row with `lockedUntil` set and no answer is a request still running (or one whose process died: its
 * claim lapses at `lockedUntil`).
 */
@Entity({ name: 'idempotency_keys' })
// The pruning deletes by expiry.
@Index('idempotency_keys_expires', ['expiresAt'])
export class IdempotencyKey {
  @PrimaryColumn({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id' })
  organisation?: Organisation;

  /** The header's value as sent: 1 to 255 visible ASCII characters. */
  @PrimaryColumn({ type: 'text' })
  key!: string;

  /** The request the key was first used for: its method, its target (path and query) and its body's hash. */
  @Column({ type: 'text' })
  method!: string;

  @Column({ type: 'text' })
  target!: string;

  /** SHA-256 of the raw body bytes (of no bytes when there was no body or it was read as a stream). */
  @Column({ name: 'body_sha256', type: 'bytea' })
  bodySha256!: Buffer;

  /** Until when the request that claimed the key counts as running; null once its answer is stored. */
  @Column({ name: 'locked_until', type: 'timestamptz', precision: 3, nullable: true })
  lockedUntil!: Date | null;

  /** The stored answer: status, the headers replayed with it, and the body's bytes as sent. */
  @Column({ name: 'response_status', type: 'smallint', nullable: true })
  responseStatus!: number | null;

  @Column({ name: 'response_headers', type: 'jsonb', nullable: true })
  responseHeaders!: Record<string, string> | null;

  @Column({ name: 'response_body', type: 'bytea', nullable: true })
  responseBody!: Buffer | null;

  @CreatedAt()
  createdAt!: Date;

  /** 24 hours after the first use; a later request with the key is a new one. */
  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt!: Date;
}
