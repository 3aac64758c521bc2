// What an operator authenticates with after signing in: a console session (a cookie) or a personal API
// token (the CLI, automation). Both are stored as the SHA-256 of a 256-bit random value.
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

import { CreatedAt } from './columns.js';
import { Operator } from './operator.entity.js';

export const SESSION_METHODS = ['password', 'oidc'] as const;
export type SessionMethod = (typeof SESSION_METHODS)[number];

/** A signed-in browser: idle and absolute expiry, and when the second factor was last shown. */
@Entity({ name: 'operator_sessions' })
export class OperatorSession {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index()
  @Column({ name: 'operator_id', type: 'uuid' })
  operatorId!: string;

  @ManyToOne(() => Operator, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'operator_id' })
  operator?: Operator;

  @Index({ unique: true })
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ type: 'text' })
  method!: SessionMethod;

  /** The absolute end, whatever the activity. */
  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt!: Date;

  /** Refreshed at most once a minute; the session ends after the idle time without a request. */
  @Column({ name: 'last_seen_at', type: 'timestamptz', precision: 3 })
  lastSeenAt!: Date;

  /** The last TOTP code (or fresh single sign-on) shown in this session, for step-up. */
  @Column({ name: 'second_factor_at', type: 'timestamptz', precision: 3, nullable: true })
  secondFactorAt!: Date | null;

  @CreatedAt()
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', precision: 3, nullable: true })
  revokedAt!: Date | null;
}

/** A personal API token: shown once, expiring, revocable, with when it was last used. */
@Entity({ name: 'operator_tokens' })
export class OperatorToken {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index()
  @Column({ name: 'operator_id', type: 'uuid' })
  operatorId!: string;

  @ManyToOne(() => Operator, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'operator_id' })
  operator?: Operator;

  @Index({ unique: true })
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ type: 'text', default: '' })
  label!: string;

  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt!: Date;

  /** Refreshed at most once a minute. */
  @Column({ name: 'last_used_at', type: 'timestamptz', precision: 3, nullable: true })
  lastUsedAt!: Date | null;

  /** The last step-up with this token (a TOTP code sent with it), for sensitive actions. */
  @Column({ name: 'second_factor_at', type: 'timestamptz', precision: 3, nullable: true })
  secondFactorAt!: Date | null;

  @CreatedAt()
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', precision: 3, nullable: true })
  revokedAt!: Date | null;
}
