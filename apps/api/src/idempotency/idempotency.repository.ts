// Every query of idempotency_keys. Style: SQL, on a pool connection through @svc/db's `query`: the claim is
// one INSERT ... ON CONFLICT whose conditions TypeORM's upsert cannot say, and the rest follow it.
import { Injectable } from '@nestjs/common';
import { query } from '@svc/db';
import { DataSource } from 'typeorm';

import type { RequestFingerprint } from './idempotency-rules.js';

/** A key as a request holds it: which organisation's, and the claim's own lock time, which names it. */
export interface Claim {
  readonly orgId: number;
  readonly key: string;
  readonly lockedUntil: Date;
}

/** A key's row as a request that could not claim it finds it. */
export interface KeyRecord extends RequestFingerprint {
  readonly answer: StoredAnswer | null;
}

export interface StoredAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/**
 * Claims the key for a request: a new key, one past its expiry (a new first use), or one whose claim lapsed
 * unanswered with the same request (its process died). Anything else stays as it is: answered, running, or
 * first used for another request.
 */
const CLAIM = {
  name: 'idempotency_keys_claim',
  text: `INSERT INTO idempotency_keys (org_id, key, method, target, body_sha256, locked_until, expires_at)
         VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond', now() + $7 * interval '1 millisecond')
         ON CONFLICT (org_id, key) DO UPDATE SET
           method = EXCLUDED.method, target = EXCLUDED.target, body_sha256 = EXCLUDED.body_sha256,
           locked_until = EXCLUDED.locked_until, response_status = NULL, response_headers = NULL,
           response_body = NULL, created_at = now(), expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= now()
            OR (idempotency_keys.response_status IS NULL AND idempotency_keys.locked_until <= now()
                AND idempotency_keys.method = EXCLUDED.method AND idempotency_keys.target = EXCLUDED.target
                AND idempotency_keys.body_sha256 = EXCLUDED.body_sha256)
         RETURNING locked_until`,
};

/** The answer under the claimed key, unless the claim lapsed and another request took the key over. */
const STORE = {
  name: 'idempotency_keys_store',
  text: `UPDATE idempotency_keys
            SET response_status = $4, response_headers = $5, response_body = $6, locked_until = NULL
          WHERE org_id = $1 AND key = $2 AND locked_until = $3 AND response_status IS NULL
          RETURNING 1`,
};

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The claim, or null when the key is held otherwise (see CLAIM). */
  async claim(
    orgId: number,
    key: string,
    request: RequestFingerprint,
    lockMs: number,
    lifetimeMs: number,
  ): Promise<Claim | null> {
    const [row] = await query<{ locked_until: Date }>(this.dataSource, CLAIM, [
      orgId,
      key,
      request.method,
      request.target,
      request.bodySha256,
      lockMs,
      lifetimeMs,
    ]);
    return row ? { orgId, key, lockedUntil: row.locked_until } : null;
  }

  /** The unexpired key's first request and its answer, if answered. */
  async find(orgId: number, key: string): Promise<KeyRecord | null> {
    const [row] = await query<{
      method: string;
      target: string;
      body_sha256: Buffer;
      response_status: number | null;
      response_headers: Record<string, string> | null;
      response_body: Buffer | null;
    }>(
      this.dataSource,
      `SELECT method, target, body_sha256, response_status, response_headers, response_body
         FROM idempotency_keys WHERE org_id = $1 AND key = $2 AND expires_at > now()`,
      [orgId, key],
    );
    if (!row) return null;
    const { response_status: status, response_body: body } = row;
    return {
      method: row.method,
      target: row.target,
      bodySha256: row.body_sha256,
      answer: status !== null && body !== null ? { status, headers: row.response_headers ?? {}, body } : null,
    };
  }

  /** Keeps the answer under the claimed key; false when the claim had lapsed and was taken over. */
  async store(claim: Claim, answer: StoredAnswer): Promise<boolean> {
    const rows = await query(this.dataSource, STORE, [
      claim.orgId,
      claim.key,
      claim.lockedUntil,
      answer.status,
      answer.headers,
      answer.body,
    ]);
    return rows.length === 1;
  }

  /** Gives the key up (its answer is not kept): the next request with it runs afresh. */
  async release(claim: Claim): Promise<void> {
    await query(
      this.dataSource,
      `DELETE FROM idempotency_keys
        WHERE org_id = $1 AND key = $2 AND locked_until = $3 AND response_status IS NULL`,
      [claim.orgId, claim.key, claim.lockedUntil],
    );
  }
}
