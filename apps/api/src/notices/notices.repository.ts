// Every query of system notices and the trading halts they cause. Style: TypeORM for system_notices; SQL
// for trading_halts, whose writes end a halt in place (LEAST, COALESCE) and whose read is the order path's.
import { Injectable } from '@nestjs/common';
import { SystemNotice } from '@svc/db';
import { DataSource, type EntityManager } from 'typeorm';

import { findPage, type Keyset, type Page, type PageQuery, ROW_ID } from '../common/pagination.js';

const BY_ID: Keyset<SystemNotice, 'id'> = { column: 'id', key: ROW_ID };

/** A pair's halt: from startsAt (at once when null) until endsAt (until an ASSET_ENABLE when null). */
export interface TradingHalt {
  readonly symbol: string;
  readonly noticeId: string;
  readonly startsAt: Date | null;
  readonly endsAt: Date | null;
}

export type NewNotice = Pick<SystemNotice, 'event' | 'entity' | 'message' | 'startTime' | 'endTime'>;

@Injectable()
export class NoticesRepository {
  constructor(private readonly dataSource: DataSource) {}

  insert(manager: EntityManager, notice: NewNotice): Promise<SystemNotice> {
    return manager.save(manager.create(SystemNotice, notice));
  }

  /** Halts trading in the notice's pair from its start to its end; replaces the pair's previous halt whole. */
  async haltPair(manager: EntityManager, notice: SystemNotice): Promise<void> {
    await manager.query(
      `INSERT INTO trading_halts (symbol, notice_id, starts_at, ends_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (symbol) DO UPDATE
       SET notice_id = EXCLUDED.notice_id, starts_at = EXCLUDED.starts_at, ends_at = EXCLUDED.ends_at`,
      [notice.entity, notice.id, notice.startTime, notice.endTime],
    );
  }

  /**
   * Ends the pair's halt at `at` (now when null), never later than it was to end; the row stays, pointing
   * at the ASSET_DISABLE notice that started it.
   */
  async endHalt(manager: EntityManager, symbol: string, at: Date | null): Promise<void> {
    await manager.query(
      `UPDATE trading_halts SET ends_at = LEAST(COALESCE(ends_at, 'infinity'), COALESCE($2::timestamptz, now()))
       WHERE symbol = $1`,
      [symbol, at],
    );
  }

  /**
   * The halts in force or still to come (not ended), by symbol: one row per pair at most (trading_halts is
   * keyed by symbol), so bounded by the number of pairs.
   */
  async currentHalts(): Promise<TradingHalt[]> {
    const rows = await this.dataSource.query<
      { symbol: string; notice_id: string; starts_at: Date | null; ends_at: Date | null }[]
    >(
      `SELECT symbol, notice_id, starts_at, ends_at FROM trading_halts
       WHERE ends_at IS NULL OR ends_at > now() ORDER BY symbol`,
    );
    return rows.map((row) => ({
      symbol: row.symbol,
      noticeId: row.notice_id,
      startsAt: row.starts_at,
      endsAt: row.ends_at,
    }));
  }

  find(id: string): Promise<SystemNotice | null> {
    return this.dataSource.getRepository(SystemNotice).findOneBy({ id });
  }

  list(query: PageQuery): Promise<Page<SystemNotice>> {
    return findPage(this.dataSource.getRepository(SystemNotice), {}, BY_ID, query);
  }
}
