// Every query of the operators feature: operators, their console sessions and personal tokens. Style:
// TypeORM for operators, operator_sessions and operator_tokens (the admins' advisory lock is SQL);
// none of it is on a hot path beyond one indexed read per operator request (no cache, so a revocation holds on every instance at once).
import { Injectable } from '@nestjs/common';
import { Operator, OperatorSession, OperatorToken, transaction } from '@svc/db';
import { DataSource, type EntityManager, IsNull, MoreThan, Not } from 'typeorm';

export type NewOperator = Pick<Operator, 'email' | 'name' | 'role' | 'setupTokenHash' | 'setupExpiresAt'>;
export type NewOperatorToken = Pick<OperatorToken, 'operatorId' | 'tokenHash' | 'label' | 'expiresAt'>;
export type NewOperatorSession = Pick<
  OperatorSession,
  'operatorId' | 'tokenHash' | 'method' | 'expiresAt' | 'secondFactorAt'
>;

/** A live credential with its operator. */
export type LiveCredential<C> = C & { operator: Operator };

@Injectable()
export class OperatorsRepository {
  constructor(private readonly dataSource: DataSource) {}

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return transaction(this.dataSource, work);
  }

  insertOperator(manager: EntityManager, values: NewOperator): Promise<Operator> {
    return manager.save(
      manager.create(Operator, {
        ...values,
        passwordHash: null,
        totpSecretCiphertext: null,
        totpConfirmedAt: null,
        totpLastStep: null,
        oidcIssuer: null,
        oidcSubject: null,
        disabledAt: null,
      }),
    );
  }

  /** `lock` holds the row for the rest of the transaction. */
  findOperator(manager: EntityManager, id: string, lock = false): Promise<Operator | null> {
    return manager.getRepository(Operator).findOne({
      where: { id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  findOperatorByEmail(manager: EntityManager, email: string, lock = false): Promise<Operator | null> {
    return manager.getRepository(Operator).findOne({
      where: { email },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** The operator whose enrolment token hashes to `hash`, locked. */
  lockOperatorBySetupToken(manager: EntityManager, hash: string): Promise<Operator | null> {
    return manager
      .getRepository(Operator)
      .findOne({ where: { setupTokenHash: hash }, lock: { mode: 'pessimistic_write' } });
  }

  findOperatorByOidc(issuer: string, subject: string): Promise<Operator | null> {
    return this.manager.getRepository(Operator).findOneBy({ oidcIssuer: issuer, oidcSubject: subject });
  }

  /** Every operator, by e-mail: a team, not a crowd, so not paginated. */
  listOperators(): Promise<Operator[]> {
    return this.manager.getRepository(Operator).find({ order: { email: 'ASC' } });
  }

  async saveOperator(manager: EntityManager, operator: Operator): Promise<Operator> {
    return manager.save(operator);
  }

  /** Whether an enabled ADMIN exists (other than `except`). */
  adminExists(manager: EntityManager, except?: string): Promise<boolean> {
    return manager
      .getRepository(Operator)
      .existsBy({ role: 'ADMIN', disabledAt: IsNull(), ...(except ? { id: Not(except) } : {}) });
  }

  /**
   * Serialises the transactions that create or demote ADMINs (bootstrap, role changes), so that "no ADMIN
   * yet" and "not the last ADMIN" hold when they commit.
   */
  async lockAdmins(manager: EntityManager): Promise<void> {
    await manager.query("SELECT pg_advisory_xact_lock(hashtext('operators.admins'))");
  }

  insertToken(manager: EntityManager, values: NewOperatorToken): Promise<OperatorToken> {
    return manager.save(
      manager.create(OperatorToken, { ...values, lastUsedAt: null, secondFactorAt: null, revokedAt: null }),
    );
  }

  /** The operator's tokens, revoked and expired ones too, newest first. */
  listTokens(operatorId: string): Promise<OperatorToken[]> {
    return this.manager
      .getRepository(OperatorToken)
      .find({ where: { operatorId }, order: { createdAt: 'DESC', id: 'ASC' } });
  }

  lockToken(manager: EntityManager, id: string): Promise<OperatorToken | null> {
    return manager
      .getRepository(OperatorToken)
      .findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** The token hashing to `hash`: not revoked, not expired, its operator not disabled. */
  findLiveToken(hash: string, now: Date): Promise<LiveCredential<OperatorToken> | null> {
    return this.manager.getRepository(OperatorToken).findOne({
      where: {
        tokenHash: hash,
        revokedAt: IsNull(),
        expiresAt: MoreThan(now),
        operator: { disabledAt: IsNull() },
      },
      relations: { operator: true },
    }) as Promise<LiveCredential<OperatorToken> | null>;
  }

  async touchToken(id: string, at: Date): Promise<void> {
    await this.manager.update(OperatorToken, { id }, { lastUsedAt: at });
  }

  async setTokenSecondFactor(id: string, at: Date): Promise<void> {
    await this.manager.update(OperatorToken, { id }, { secondFactorAt: at });
  }

  async revokeToken(manager: EntityManager, id: string, at: Date): Promise<void> {
    await manager.update(OperatorToken, { id }, { revokedAt: at });
  }

  insertSession(manager: EntityManager, values: NewOperatorSession): Promise<OperatorSession> {
    return manager.save(
      manager.create(OperatorSession, { ...values, lastSeenAt: new Date(), revokedAt: null }),
    );
  }

  /**
   * The session hashing to `hash`: not revoked, before its absolute end, seen since `idleSince`, its
   * operator not disabled.
   */
  findLiveSession(hash: string, now: Date, idleSince: Date): Promise<LiveCredential<OperatorSession> | null> {
    return this.manager.getRepository(OperatorSession).findOne({
      where: {
        tokenHash: hash,
        revokedAt: IsNull(),
        expiresAt: MoreThan(now),
        lastSeenAt: MoreThan(idleSince),
        operator: { disabledAt: IsNull() },
      },
      relations: { operator: true },
    }) as Promise<LiveCredential<OperatorSession> | null>;
  }

  findSession(id: string): Promise<OperatorSession | null> {
    return this.manager.getRepository(OperatorSession).findOneBy({ id });
  }

  async touchSession(id: string, at: Date): Promise<void> {
    await this.manager.update(OperatorSession, { id }, { lastSeenAt: at });
  }

  async setSessionSecondFactor(id: string, at: Date): Promise<void> {
    await this.manager.update(OperatorSession, { id }, { secondFactorAt: at });
  }

  async revokeSession(id: string, at: Date): Promise<void> {
    await this.manager.update(OperatorSession, { id, revokedAt: IsNull() }, { revokedAt: at });
  }

  /** Ends every session and token of the operator (disabled, re-enrolled). Answers how many. */
  async revokeCredentials(manager: EntityManager, operatorId: string, at: Date): Promise<number> {
    const sessions = await manager.update(
      OperatorSession,
      { operatorId, revokedAt: IsNull() },
      { revokedAt: at },
    );
    const tokens = await manager.update(
      OperatorToken,
      { operatorId, revokedAt: IsNull() },
      { revokedAt: at },
    );
    return (sessions.affected ?? 0) + (tokens.affected ?? 0);
  }
}
