// The throttles' counters (attempt_counters): attempts per key in a fixed window, in the database so that
// a limit holds across instances. Style: SQL for attempt_counters, since an attempt must be taken and its
// count decided in one statement.
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** An attempt taken under a key, or refused since the key's window was full; either way, when it ends. */
export interface TakenAttempt {
  readonly taken: boolean;
  /** Whole seconds until the window ends, at least 1: a 429's Retry-After. */
  readonly retryAfterSeconds: number;
}

/** The seconds from now to the end of the window of `window_start` and `$2` ms, for Retry-After. */
const RETRY_AFTER =
  "GREATEST(1, ceil(extract(epoch FROM window_start + $2 * interval '1 millisecond' - now())))::int AS retry_after";

@Injectable()
export class AttemptCountersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes one of the `limit` attempts `key` has in a fixed window of `windowMs`, or none when they are all
   * taken. One statement, which counts only while under the limit: however many callers on however many
   * instances ask at once, `limit` of them are answered `taken` in a window and the row never holds more.
   */
  async take(key: string, limit: number, windowMs: number): Promise<TakenAttempt> {
    const [row] = await this.dataSource.query<{ retry_after: number }[]>(
      `INSERT INTO attempt_counters AS counter (key, window_start, attempts) VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         attempts = CASE WHEN counter.window_start <= now() - $2 * interval '1 millisecond'
                         THEN 1 ELSE counter.attempts + 1 END,
         window_start = CASE WHEN counter.window_start <= now() - $2 * interval '1 millisecond'
                             THEN now() ELSE counter.window_start END
       WHERE counter.window_start <= now() - $2 * interval '1 millisecond' OR counter.attempts < $3
       RETURNING ${RETRY_AFTER}`,
      [key, windowMs, limit],
    );
    if (row) return { taken: true, retryAfterSeconds: row.retry_after };
    // Refused: the window is current and full; when it ends is only the Retry-After.
    const [full] = await this.dataSource.query<{ retry_after: number }[]>(
      `SELECT ${RETRY_AFTER} FROM attempt_counters WHERE key = $1`,
      [key, windowMs],
    );
    return { taken: false, retryAfterSeconds: full?.retry_after ?? Math.ceil(windowMs / 1000) };
  }

  /** Gives back an attempt taken under `key` (one that turned out not to count). */
  async giveBack(key: string): Promise<void> {
    await this.dataSource.query(
      'UPDATE attempt_counters SET attempts = attempts - 1 WHERE key = $1 AND attempts > 0',
      [key],
    );
  }

  async clear(key: string): Promise<void> {
    await this.dataSource.query('DELETE FROM attempt_counters WHERE key = $1', [key]);
  }

  /** Deletes counters whose window has passed; any instance may run it. */
  async sweep(windowMs: number): Promise<void> {
    await this.dataSource.query(
      "DELETE FROM attempt_counters WHERE window_start <= now() - $1 * interval '1 millisecond'",
      [windowMs],
    );
  }
}
