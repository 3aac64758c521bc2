// Every query of the users table. Writes are plain SQL: the user insert is on the signed-write hot path,
// where TypeORM's insert builder cost about 0.05 ms of CPU per row (docs/decisions.md, "Request path: SQL on
// the hot tables": the signed write targets), and updates follow the same way so the table has one; the
// insert goes on the transaction's pg connection (@svc/db's `query`), past TypeORM's query wrapper. Reads go
// through TypeORM.
// Style: users is the one table read and written two ways: SQL writes, TypeORM reads, as said above (and
// the expiry sweep's locking read in SQL, where the sandbox clocks join in).
import { Injectable } from '@nestjs/common';
import { query, User } from '@svc/db';
import { DataSource, type EntityManager, type FindOptionsWhere, In, Like } from 'typeorm';

import { findPage, type Keyset, type Page, type PageOrder, ROW_ID } from '../common/pagination.js';
import type { ListUsersQuery } from './dto/list-users.query.js';

const BY_ID: Keyset<User, 'id'> = { column: 'id', key: ROW_ID };

/** The list's filters; the dashboard's search adds the start of an orgUserId. */
export type UserFilters = ListUsersQuery & { readonly orgUserIdPrefix?: string };

export type NewUser = Pick<
  User,
  'orgId' | 'orgUserId' | 'kyc' | 'tnc' | 'userStatus' | 'userType' | 'kycState'
>;

/** The columns a change may set besides updated_at. */
export type UserChanges = Partial<
  Pick<User, 'tnc' | 'kyc' | 'userStatus' | 'kycState' | 'kycForm' | 'kycExpiresAt'>
>;

const COLUMNS: Readonly<Record<keyof UserChanges, string>> = {
  tnc: 'tnc',
  kyc: 'kyc',
  userStatus: 'user_status',
  kycState: 'kyc_state',
  kycForm: 'kyc_form',
  kycExpiresAt: 'kyc_expires_at',
};

@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts the user; a duplicate orgUserId throws PostgreSQL's unique violation (23505). */
  async insert(manager: EntityManager, values: NewUser): Promise<User> {
    const [row] = await query<{ id: string; created_at: Date; updated_at: Date }>(
      manager,
      'INSERT INTO users (org_id, org_user_id, kyc, tnc, user_status, user_type, kyc_state) ' +
        'VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, created_at, updated_at',
      [
        values.orgId,
        values.orgUserId,
        values.kyc,
        values.tnc,
        values.userStatus,
        values.userType,
        values.kycState,
      ],
    );
    if (!row) throw new Error('INSERT INTO users returned no row');
    return Object.assign(new User(), values, {
      id: row.id,
      kycForm: null,
      kycExpiresAt: null,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    });
  }

  /** Writes `changes` to the user and to `user` itself, with its new updatedAt. */
  async update(manager: EntityManager, user: User, changes: UserChanges): Promise<void> {
    const fields = Object.keys(changes) as (keyof UserChanges)[];
    const assignments = fields.map((field, index) => `${COLUMNS[field]} = $${index + 2}`);
    const values = fields.map((field) => {
      const value = changes[field];
      return field === 'kycForm' && value !== null ? JSON.stringify(value) : value;
    });
    // TypeORM answers an UPDATE with [rows, affected].
    const [[row]] = await manager.query<[{ updated_at: Date }[], number]>(
      `UPDATE users SET ${[...assignments, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING updated_at`,
      [user.id, ...values],
    );
    if (!row) throw new Error(`UPDATE users found no user ${user.id}`);
    Object.assign(user, changes, { updatedAt: row.updated_at });
  }

  /** The organisation's user; `lock` holds the row for the rest of the transaction. */
  find(manager: EntityManager, orgId: number, orgUserId: string, lock = false): Promise<User | null> {
    return manager.getRepository(User).findOne({
      where: { orgId, orgUserId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  list(orgId: number, query: UserFilters, order?: PageOrder): Promise<Page<User>> {
    const where: FindOptionsWhere<User> = { orgId };
    if (query.orgUserIdPrefix) where.orgUserId = Like(`${query.orgUserIdPrefix.replace(/[\\%_]/g, '\\$&')}%`);
    if (query.userStatus !== undefined) where.userStatus = query.userStatus;
    if (query.kyc !== undefined) where.kyc = query.kyc;
    if (query.tnc !== undefined) where.tnc = query.tnc;
    return findPage(this.dataSource.getRepository(User), where, BY_ID, query, order);
  }

  /**
   * Up to `limit` users in one of `states` whose KYC step expired by `now`, oldest first, locked; a user
   * locked by a request in flight is skipped (left for the next sweep) rather than waited for. A sandbox
   * organisation's users are due by its own clock, `now` plus the clock's offset (docs/decisions.md,
   * "Sandbox: the test clock"): SQL, as the offsets join in. The first branch is the one every live user
   * takes, on the kyc_expires_at index; the second reads only the users of organisations with a clock.
   */
  async lockExpired(manager: EntityManager, states: readonly User['kycState'][], now: Date, limit: number) {
    const rows = await manager.query<{ id: string }[]>(
      `SELECT u.id FROM users u
        WHERE u.id IN (
          (SELECT id FROM users
            WHERE kyc_state = ANY($1) AND kyc_expires_at <= $2
            ORDER BY kyc_expires_at LIMIT $3)
          UNION ALL
          (SELECT v.id FROM sandbox_clocks c JOIN users v ON v.org_id = c.org_id
            WHERE v.kyc_state = ANY($1) AND v.kyc_expires_at > $2
              AND v.kyc_expires_at <= $2::timestamptz + c.offset_ms * interval '1 millisecond'
            ORDER BY v.kyc_expires_at LIMIT $3))
        ORDER BY u.kyc_expires_at LIMIT $3
        FOR UPDATE SKIP LOCKED`,
      [[...states], now, limit],
    );
    if (rows.length === 0) return [];
    return manager.getRepository(User).find({
      where: { id: In(rows.map((row) => row.id)) },
      order: { kycExpiresAt: 'ASC' },
    });
  }
}
