// Every read of the event log and the event stream, and the leases of open streams (docs/decisions.md,
// "Events: serving the stream"). Plain SQL: the data comes back as the JSON text stored, never parsed, so
// that the body answered is the one delivered, digit for digit; and the stream's read runs on every commit of
// an organisation with a stream open.
import { Injectable } from '@nestjs/common';
import { type EventStatus, query, type Statement, transaction } from '@svc/db';
import type { EntityName, KycEventType } from '@svc/protocol';
import { DataSource } from 'typeorm';

import type { PageOrder } from '../common/pagination.js';
import type { AttemptError } from '../webhooks/endpoint-health.js';

/** An event as the log and the stream read it. */
export interface EventLogRow {
  readonly id: string;
  readonly orgId: number;
  readonly entity: EntityName;
  readonly eventType: KycEventType | null;
  /** The data's JSON text as stored. */
  readonly data: string;
  readonly status: EventStatus;
  readonly createdAt: Date;
  /** Where the row sits in the stream's order (see StreamKey). */
  readonly key: StreamKey;
}

/**
 * The stream's order: the writing transaction's id, then the insertion position (bigint columns, compared
 * as JS bigints). Rows whose transaction is below the oldest one still running are final: no row can
 * appear before them any more.
 */
export interface StreamKey {
  readonly txid: bigint;
  readonly position: bigint;
}

/** An event as the log reads it: with where its delivery stands (webhooks/delivery-state.ts). */
export interface LoggedEvent extends EventLogRow {
  readonly numRetries: number;
  readonly nextAttemptAt: Date;
  /** The latest failed attempt, read while the event is RETRYING only; else null. */
  readonly lastError: AttemptError | null;
}

/** The log's order: creation time, then insertion position. */
export interface LogKey {
  readonly createdAt: Date;
  readonly position: bigint;
}

export interface LogFilter {
  readonly entity?: EntityName;
  readonly eventType?: KycEventType;
  readonly status?: EventStatus;
  /** Created at or after. */
  readonly since?: Date | undefined;
  /** Created before. */
  readonly until?: Date | undefined;
  /** Naming this user (data.orgUserId: Users and Orders events), on events_org_user. */
  readonly orgUserId?: string | undefined;
  /** Of this order (an Orders event's data.id), on events_org_order. */
  readonly orderId?: string | undefined;
}

/** One read of the stream: the final rows after a key, and whether committed rows wait behind them. */
export interface StreamRead {
  readonly rows: EventLogRow[];
  /** The oldest transaction still running when the rows were read: every txid below it is final. */
  readonly xmin: bigint;
  /** Committed rows after the final ones whose transaction is not below xmin yet: read again soon. */
  readonly pending: boolean;
}

interface RawRow {
  id: string;
  org_id: number;
  entity: EntityName;
  event_type: KycEventType | null;
  data: string;
  status: EventStatus;
  created_at: Date;
  txid: string;
  position: string;
}

const COLUMNS =
  'e.id, e.org_id, e.entity, e.event_type, e.data::text AS data, e.status, e.created_at, e.txid, e.position';

interface RawLogged extends RawRow {
  num_retries: number;
  next_attempt_at: Date;
  error_at: Date | null;
  error_kind: string | null;
  error_status: number | null;
  error_response: string | null;
}

/**
 * The log's columns: the stream's, the delivery's, and a retrying event's latest failed attempt (on
 * webhook_attempts' event_id index; a condition on the outer row only, so other events read nothing).
 */
const LOGGED = `SELECT ${COLUMNS}, e.num_retries, e.next_attempt_at,
       le.attempted_at AS error_at, le.error_kind, le.status_code AS error_status, le.response AS error_response
  FROM events e
  LEFT JOIN LATERAL (
    SELECT a.attempted_at, a.error_kind, a.status_code, a.response FROM webhook_attempts a
     WHERE e.status = 'PENDING' AND e.num_retries > 0 AND a.event_id = e.id AND NOT a.delivered
     ORDER BY a.id DESC LIMIT 1) le ON true`;

/**
 * The rows after a key, in stream order, with the snapshot's xmin: final rows (txid below xmin) come first
 * in that order, so those are a prefix. The xmin is the statement's own snapshot's, the one its rows were
 * read with.
 */
const READ_AFTER: Statement = {
  name: 'event_stream_read_after',
  text: `SELECT x.xmin::text AS xmin, ${COLUMNS}
           FROM (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS xmin) x
           LEFT JOIN LATERAL (
             SELECT * FROM events WHERE org_id = $1 AND (txid, position) > ($2::bigint, $3::bigint)
              ORDER BY txid, position LIMIT $4) e ON true`,
};

/** Rows in (after, upTo], in stream order, optionally created at or after a time: a stream catching up. */
const READ_RANGE: Statement = {
  name: 'event_stream_read_range',
  text: `SELECT ${COLUMNS} FROM events e
          WHERE e.org_id = $1 AND (e.txid, e.position) > ($2::bigint, $3::bigint)
            AND (e.txid, e.position) <= ($4::bigint, $5::bigint)
            AND ($6::timestamptz IS NULL OR e.created_at >= $6::timestamptz)
          ORDER BY e.txid, e.position LIMIT $7`,
};

@Injectable()
export class EventLogRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * A page of the organisation's log after `after`, in log order (the dashboard's: newest first);
   * `limit` rows at most.
   */
  async list(
    orgId: number,
    filter: LogFilter,
    after: LogKey | undefined,
    limit: number,
    order: PageOrder = 'oldest-first',
  ) {
    const newestFirst = order === 'newest-first';
    const where = ['e.org_id = $1'];
    const values: unknown[] = [orgId];
    const add = (condition: (placeholder: string) => string, value: unknown) => {
      values.push(value);
      where.push(condition(`$${values.length}`));
    };
    if (filter.entity) add((p) => `e.entity = ${p}`, filter.entity);
    if (filter.eventType) add((p) => `e.event_type = ${p}`, filter.eventType);
    if (filter.status) add((p) => `e.status = ${p}`, filter.status);
    if (filter.since) add((p) => `e.created_at >= ${p}`, filter.since);
    if (filter.until) add((p) => `e.created_at < ${p}`, filter.until);
    if (filter.orgUserId) add((p) => `(e.data->>'orgUserId') = ${p}`, filter.orgUserId);
    if (filter.orderId) add((p) => `e.entity = 'Orders' AND (e.data->>'id') = ${p}`, filter.orderId);
    if (after) {
      values.push(after.createdAt, after.position.toString());
      const after_ = `($${values.length - 1}, $${values.length}::bigint)`;
      where.push(`(e.created_at, e.position) ${newestFirst ? '<' : '>'} ${after_}`);
    }
    values.push(limit);
    const direction = newestFirst ? 'DESC' : 'ASC';
    const rows = await query<RawLogged>(
      this.dataSource,
      `${LOGGED} WHERE ${where.join(' AND ')}
        ORDER BY e.created_at ${direction}, e.position ${direction} LIMIT $${values.length}`,
      values,
    );
    return rows.map(toLogged);
  }

  async find(orgId: number, id: string): Promise<LoggedEvent | undefined> {
    const [row] = await query<RawLogged>(this.dataSource, `${LOGGED} WHERE e.id = $1 AND e.org_id = $2`, [
      id,
      orgId,
    ]);
    return row && toLogged(row);
  }

  /** The key from which a new stream starts: every row below it is final. */
  async frontier(): Promise<StreamKey> {
    const [row] = await query<{ xmin: string }>(
      this.dataSource,
      'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin',
    );
    return { txid: BigInt(row?.xmin ?? '0'), position: 0n };
  }

  async readAfter(orgId: number, after: StreamKey, limit: number): Promise<StreamRead> {
    // The LEFT JOIN answers one row of nulls (but xmin) when no event follows the key.
    const raw = await query<(RawRow | Nullable<RawRow>) & { xmin: string }>(this.dataSource, READ_AFTER, [
      orgId,
      after.txid.toString(),
      after.position.toString(),
      limit,
    ]);
    const xmin = BigInt(raw[0]?.xmin ?? '0');
    const rows: EventLogRow[] = [];
    let pending = false;
    for (const row of raw) {
      if (!isEvent(row)) continue;
      if (BigInt(row.txid) < xmin) rows.push(toRow(row));
      else pending = true;
    }
    return { rows, xmin, pending };
  }

  async readRange(
    orgId: number,
    range: { after: StreamKey; upTo: StreamKey; since: Date | undefined },
    limit: number,
  ): Promise<EventLogRow[]> {
    const { after, upTo } = range;
    const rows = await query<RawRow>(this.dataSource, READ_RANGE, [
      orgId,
      after.txid.toString(),
      after.position.toString(),
      upTo.txid.toString(),
      upTo.position.toString(),
      range.since ?? null,
      limit,
    ]);
    return rows.map(toRow);
  }

  /**
   * Takes one of the organisation's `max` stream leases, valid for `ttlMs`; false when all are held. The
   * count is serialised per organisation by an advisory lock, so two instances cannot both take the last.
   */
  async acquireLease(orgId: number, id: string, max: number, ttlMs: number): Promise<boolean> {
    return transaction(this.dataSource, async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [LEASE_LOCK, orgId]);
      await manager.query('DELETE FROM event_streams WHERE org_id = $1 AND expires_at <= now()', [orgId]);
      const [held] = await manager.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM event_streams WHERE org_id = $1',
        [orgId],
      );
      if ((held?.n ?? 0) >= max) return false;
      await manager.query(
        `INSERT INTO event_streams (id, org_id, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')`,
        [id, orgId, ttlMs],
      );
      return true;
    });
  }

  /** Extends the leases still held; answers their ids (a lease gone went with its organisation). */
  async renewLeases(ids: string[], ttlMs: number): Promise<Set<string>> {
    const rows = await query<{ id: string }>(
      this.dataSource,
      `UPDATE event_streams SET expires_at = now() + $2 * interval '1 millisecond'
        WHERE id = ANY($1::uuid[]) RETURNING id`,
      [ids, ttlMs],
    );
    return new Set(rows.map((row) => row.id));
  }

  async releaseLeases(ids: string[]): Promise<void> {
    await query(this.dataSource, 'DELETE FROM event_streams WHERE id = ANY($1::uuid[])', [ids]);
  }
}

/** The first key of the advisory locks taken for stream leases (the second is the organisation's id). */
const LEASE_LOCK = 0x5eed_0001;

type Nullable<T> = { [K in keyof T]: null };

function isEvent(row: RawRow | Nullable<RawRow>): row is RawRow {
  return row.id !== null;
}

function toLogged(row: RawLogged): LoggedEvent {
  return {
    ...toRow(row),
    numRetries: row.num_retries,
    nextAttemptAt: row.next_attempt_at,
    lastError:
      row.error_at === null
        ? null
        : {
            at: row.error_at,
            errorKind: row.error_kind,
            statusCode: row.error_status,
            response: row.error_response ?? '',
          },
  };
}

function toRow(row: RawRow): EventLogRow {
  return {
    id: row.id,
    orgId: row.org_id,
    entity: row.entity,
    eventType: row.event_type,
    data: row.data,
    status: row.status,
    createdAt: row.created_at,
    key: { txid: BigInt(row.txid), position: BigInt(row.position) },
  };
}
