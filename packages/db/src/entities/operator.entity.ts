import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { CreatedAt, UpdatedAt } from './columns.js';

/**
 * What an operator may do on the admin surface (docs/operators.md): ADMIN everything; KYC_REVIEWER the KYC
 * decisions; TRADING_OPS prices, policies and notices; SUPPORT reads only. Every role reads.
 */
export const OPERATOR_ROLES = ['ADMIN', 'KYC_REVIEWER', 'TRADING_OPS', 'SUPPORT'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** A person on the operator surface, with their own sign-in and role. */
@Entity({ name: 'operators' })
@Index('operators_oidc_identity', ['oidcIssuer', 'oidcSubject'], { unique: true })
export class Operator {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** Lower case; how the operator signs in with a password, and how single sign-on finds them first. */
  @Index({ unique: true })
  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  role!: OperatorRole;

  /** argon2id (PHC string); null until the operator has enrolled. */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash!: string | null;

  /** The TOTP secret, AES-256-GCM under the master key (the server must read it to check a code). */
  @Column({ name: 'totp_secret_ciphertext', type: 'text', nullable: true })
  totpSecretCiphertext!: string | null;

  /** When the operator proved their authenticator holds the secret; before that no password sign-in. */
  @Column({ name: 'totp_confirmed_at', type: 'timestamptz', precision: 3, nullable: true })
  totpConfirmedAt!: Date | null;

  /** The last TOTP time step accepted: a code is good once (bigint, so pg returns it as a string). */
  @Column({ name: 'totp_last_step', type: 'bigint', nullable: true })
  totpLastStep!: string | null;

  /** SHA-256 of the single-use enrolment token the creation (or a reset) answered. */
  @Index({ unique: true })
  @Column({ name: 'setup_token_hash', type: 'text', nullable: true })
  setupTokenHash!: string | null;

  @Column({ name: 'setup_expires_at', type: 'timestamptz', precision: 3, nullable: true })
  setupExpiresAt!: Date | null;

  /** The single sign-on identity (`iss`, `sub`), linked at the first OpenID Connect sign-in. */
  @Column({ name: 'oidc_issuer', type: 'text', nullable: true })
  oidcIssuer!: string | null;

  @Column({ name: 'oidc_subject', type: 'text', nullable: true })
  oidcSubject!: string | null;

  /** A disabled operator cannot sign in; their sessions and tokens stop working. */
  @Column({ name: 'disabled_at', type: 'timestamptz', precision: 3, nullable: true })
  disabledAt!: Date | null;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
