// Every query of the sandbox clocks (and the read of an organisation's environment they go with). Style:
// SQL, as an upsert and a row lock read more plainly so than through TypeORM; none of it is on a hot path.
import { Injectable } from '@nestjs/common';
import type { OrgEnvironment } from '@svc/db';
import type { EntityManager } from 'typeorm';

export interface ClockRow {
  readonly environment: OrgEnvironment;
  /** Milliseconds ahead of real time; 0 without a clock. */
  readonly offsetMs: number;
}

@Injectable()
export class OrgClockRepository {
  /** The organisation's environment and clock offset; null when there is no such organisation. */
  async read(manager: EntityManager, orgId: number): Promise<ClockRow | null> {
    const [row] = await manager.query<{ environment: OrgEnvironment; offset_ms: string }[]>(
      `SELECT o.environment, COALESCE(c.offset_ms, 0)::text AS offset_ms
         FROM organisations o LEFT JOIN sandbox_clocks c ON c.org_id = o.id
        WHERE o.id = $1`,
      [orgId],
    );
    return row ? { environment: row.environment, offsetMs: Number(row.offset_ms) } : null;
  }

  /** The clock's offset, its row created at 0 if need be and locked for the rest of the transaction. */
  async lock(manager: EntityManager, orgId: number): Promise<number> {
    await manager.query(
      'INSERT INTO sandbox_clocks (org_id, offset_ms) VALUES ($1, 0) ON CONFLICT (org_id) DO NOTHING',
      [orgId],
    );
    const [row] = await manager.query<{ offset_ms: string }[]>(
      'SELECT offset_ms::text FROM sandbox_clocks WHERE org_id = $1 FOR UPDATE',
      [orgId],
    );
    return Number(row?.offset_ms ?? 0);
  }

  async save(manager: EntityManager, orgId: number, offsetMs: number): Promise<void> {
    await manager.query('UPDATE sandbox_clocks SET offset_ms = $2, updated_at = now() WHERE org_id = $1', [
      orgId,
      offsetMs,
    ]);
  }
}
