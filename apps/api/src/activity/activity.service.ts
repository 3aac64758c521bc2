// The figures behind the charts: webhook attempts per hour (with durations) and per day, orders and their
// volume per day, the KYC queue by waiting time. Time windows end with the current UTC hour or day, which
// is still running; the repository groups, this fills in what a chart needs (a point per hour or day,
// volumes per quote currency summed exactly).
import { Inject, Injectable } from '@nestjs/common';

import { Dec } from '../common/decimal.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { KYC_TRANSITIONS } from '../kyc/kyc-state-machine.js';
import { ActivityRepository, type AttemptBucket } from './activity.repository.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Hours of the hourly charts, days of the daily delivery chart and of the orders chart. */
export const WINDOWS = { hours: 24, deliveryDays: 7, orderDays: 30 } as const;

/** The KYC queue's brackets of waiting time, shortest first: each from its `from` up to the next one's. */
export const KYC_BRACKETS = [
  { label: 'under 1 h', from: 0 },
  { label: '1–4 h', from: HOUR_MS },
  { label: '4–24 h', from: 4 * HOUR_MS },
  { label: '1–3 days', from: DAY_MS },
  { label: '3–7 days', from: 3 * DAY_MS },
  { label: '7 days +', from: 7 * DAY_MS },
] as const;

export interface Deliveries {
  readonly hours: readonly AttemptBucket[];
  readonly days: readonly AttemptBucket[];
}

export interface OrdersPerDay {
  readonly days: readonly Date[];
  readonly completed: readonly number[];
  readonly refused: readonly number[];
  readonly other: readonly number[];
  /** Per quote currency (most volume first), the completed volume of each day with its exact digits. */
  readonly volumes: readonly { readonly quote: string; readonly perDay: readonly string[] }[];
}

export interface KycQueueAges {
  /** Waiting cases per bracket of KYC_BRACKETS, in its order. */
  readonly counts: readonly number[];
  readonly total: number;
  /** When the case waiting longest began waiting, or null when none waits. */
  readonly oldestSince: Date | null;
}

/** The start of the UTC hour or day holding `at`. */
function floorTo(at: Date, unitMs: number): Date {
  return new Date(Math.floor(at.getTime() / unitMs) * unitMs);
}

@Injectable()
export class ActivityService {
  constructor(
    private readonly activity: ActivityRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Attempts of the last 24 hours hour by hour, and of the last 7 days day by day (null: every organisation). */
  async deliveries(orgId: number | null, now = new Date()): Promise<Deliveries> {
    const { hours, deliveryDays } = WINDOWS;
    const fromHour = new Date(floorTo(now, HOUR_MS).getTime() - (hours - 1) * HOUR_MS);
    const fromDay = new Date(floorTo(now, DAY_MS).getTime() - (deliveryDays - 1) * DAY_MS);
    const [perHour, perDay] = await Promise.all([
      this.activity.attempts(orgId, 'hour', fromHour, hours),
      this.activity.attempts(orgId, 'day', fromDay, deliveryDays),
    ]);
    return { hours: perHour, days: perDay };
  }

  /** Orders of the last 30 days day by day, and each quote currency's completed volume. */
  async ordersPerDay(orgId: number | null, now = new Date()): Promise<OrdersPerDay> {
    const count = WINDOWS.orderDays;
    const from = floorTo(now, DAY_MS).getTime() - (count - 1) * DAY_MS;
    const days = Array.from({ length: count }, (_, i) => new Date(from + i * DAY_MS));
    const rows = await this.activity.ordersPerDay(orgId, new Date(from));
    const completed = days.map(() => 0);
    const refused = days.map(() => 0);
    const other = days.map(() => 0);
    const volumes = new Map<string, { total: Dec; perDay: Dec[] }>();
    for (const row of rows) {
      const i = Math.round((row.day.getTime() - from) / DAY_MS);
      if (i < 0 || i >= count) continue;
      completed[i] = (completed[i] ?? 0) + row.completed;
      refused[i] = (refused[i] ?? 0) + row.refused;
      other[i] = (other[i] ?? 0) + row.other;
      const volume = new Dec(row.volume);
      if (volume.isZero() && !volumes.has(row.quote)) continue;
      const quote = volumes.get(row.quote) ?? { total: new Dec(0), perDay: days.map(() => new Dec(0)) };
      quote.perDay[i] = (quote.perDay[i] ?? new Dec(0)).plus(volume);
      quote.total = quote.total.plus(volume);
      volumes.set(row.quote, quote);
    }
    return {
      days,
      completed,
      refused,
      other,
      volumes: [...volumes.entries()]
        .sort(([a, x], [b, y]) => y.total.comparedTo(x.total) || a.localeCompare(b))
        .map(([quote, { perDay }]) => ({ quote, perDay: perDay.map((v) => v.toFixed()) })),
    };
  }

  /** The KYC cases waiting for a decision (the review queue's), by how long they have waited. */
  async kycQueue(now = new Date()): Promise<KycQueueAges> {
    const expiryMs = this.config.kycExpiryDays * DAY_MS;
    // A case waiting w has expiry now + expiry - w: the longest waits expire first, so the bounds run
    // from the longest bracket to the shortest.
    const longestFirst = [...KYC_BRACKETS].reverse();
    const bounds = longestFirst.slice(0, -1).map((b) => new Date(now.getTime() + expiryMs - b.from));
    const waiting = await this.activity.kycWaiting(KYC_TRANSITIONS.approve.from, bounds);
    return {
      counts: [...waiting.brackets].reverse(),
      total: waiting.total,
      oldestSince: waiting.oldestExpiresAt && new Date(waiting.oldestExpiresAt.getTime() - expiryMs),
    };
  }
}
