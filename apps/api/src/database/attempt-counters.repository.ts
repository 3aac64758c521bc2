// The throttles' counters (attempt_counters): attempts per key in a fixed window, in the database so that
// a limit holds across instances. SQL rather than TypeORM, since a count must be taken in one statement.
import { Injectable } from '@nestjs/common';
import { AttemptCounter } from '@svc/db';
import { DataSource } from 'typeorm';

@Injectable()
export class AttemptCountersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Counts one attempt under `key` in a fixed window of `windowMs`; answers the count and when the window
   * ends. One statement, so concurrent attempts on several instances each count.
   */
  async countAttempt(key: string, windowMs: number): Promise<{ attempts: number; resetAt: Date }> {
    const [row] = await this.dataSource.query<{ attempts: number; reset_at: Date }[]>(
      `INSERT INTO attempt_counters (key, window_start, attempts) VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         attempts = CASE WHEN attempt_counters.window_start <= now() - $2 * interval '1 millisecond'
                         THEN 1 ELSE attempt_counters.attempts + 1 END,
         window_start = CASE WHEN attempt_counters.window_start <= now() - $2 * interval '1 millisecond'
                             THEN now() ELSE attempt_counters.window_start END
       RETURNING attempts, window_start + $2 * interval '1 millisecond' AS reset_at`,
      [key, windowMs],
    );
    if (!row) throw new Error('the attempt counter answered no row');
    return { attempts: row.attempts, resetAt: row.reset_at };
  }

  /** The attempts counted under `key` in its current window (0 when none). */
  async attempts(key: string, windowMs: number): Promise<{ attempts: number; resetAt: Date | null }> {
    const row = await this.dataSource.manager.getRepository(AttemptCounter).findOneBy({ key });
    if (!row || row.windowStart.getTime() + windowMs <= Date.now()) return { attempts: 0, resetAt: null };
    return { attempts: row.attempts, resetAt: new Date(row.windowStart.getTime() + windowMs) };
  }

  async clearAttempts(key: string): Promise<void> {
    await this.dataSource.manager.delete(AttemptCounter, { key });
  }

  /** Deletes counters whose window has passed; any instance may run it. */
  async sweepAttempts(windowMs: number): Promise<void> {
    await this.dataSource.query(
      "DELETE FROM attempt_counters WHERE window_start <= now() - $1 * interval '1 millisecond'",
      [windowMs],
    );
  }
}
