// The per-endpoint concurrency cap (docs/decisions.md, "Webhooks: the per-endpoint cap"): at most `limit`
// attempts in flight to one endpoint from this process, so one slow receiver cannot take every connection and
// starve the others.
//
// An attempt without a free slot waits in its endpoint's line, and gives up (its event is put back for
// later, leaving the batch and its fetcher free) when the line has not moved for `checkMs`, or the
// endpoint is slow, or after `maxWaitMs` in all. A healthy endpoint's line moves every few milliseconds,
// so a busy worker does not put its events back; a slow or stuck endpoint's events leave after `checkMs`.
//
// Slow is relative: an endpoint whose attempts hold their slots longer than `checkMs` and SLOW_FACTOR times
// longer than this process's attempts do on the whole. When every endpoint is slow together, the cause
// is common to them (the worker starved of CPU, its network), and putting events back would only add a
// write and a fetch for each, making it worse: their attempts wait their turn. For the same reason a
// check that comes late (the process was busy) does not judge the line.

interface Slot {
  active: number;
  waiting: (() => void)[];
  /** How long an attempt has held a slot lately (ms): a moving average, 0 before the first release. */
  holdMs: number;
  /** When a slot was last released (performance.now()). */
  releasedAt: number;
}

export interface SlotWaits {
  /** A waiter looks this often whether its line moves (ms). */
  readonly checkMs: number;
  /** The longest a waiter waits (ms). */
  readonly maxWaitMs: number;
}

/** The weight of the latest hold in the moving averages. */
const HOLD_WEIGHT = 0.2;
/** A check later than this share of `checkMs` does not judge the line. */
const LATE_SHARE = 0.25;
/** How many times longer than the process's attempts an endpoint's must hold their slots to be slow. */
const SLOW_FACTOR = 3;

export class EndpointSlots {
  private readonly slots = new Map<string, Slot>();
  /** How long an attempt to any endpoint has held its slot lately (ms): a moving average. */
  private holdMs = 0;

  constructor(
    private readonly limit: number,
    private readonly waits: SlotWaits,
  ) {}

  /**
   * A release function once a slot is free, or null if the wait was given up: the caller then puts the
   * event back for later instead of holding its batch.
   */
  async acquire(endpointId: string): Promise<(() => void) | null> {
    let slot = this.slots.get(endpointId);
    if (!slot) {
      slot = { active: 0, waiting: [], holdMs: 0, releasedAt: 0 };
      this.slots.set(endpointId, slot);
    }
    if (slot.active < this.limit) {
      slot.active++;
      return this.releaser(endpointId, slot);
    }
    const current = slot;
    const { checkMs, maxWaitMs } = this.waits;
    const since = performance.now();
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout;
      const wake = () => {
        clearTimeout(timer);
        current.active++;
        resolve(this.releaser(endpointId, current));
      };
      let lastCheck = since;
      let dueAt = since;
      const next = (now: number) => {
        const wait = Math.min(checkMs, since + maxWaitMs - now);
        dueAt = now + wait;
        timer = setTimeout(check, wait);
      };
      const check = () => {
        const now = performance.now();
        // A check that comes late found the process busy (CPU, a long collection), not the endpoint:
        // the releases it would look for may be unread yet, so it does not judge the line.
        const late = now - dueAt > checkMs * LATE_SHARE;
        const moving = late || (current.releasedAt > lastCheck && !this.slow(current));
        if (!moving || now - since >= maxWaitMs) {
          current.waiting = current.waiting.filter((waiter) => waiter !== wake);
          resolve(null);
          return;
        }
        lastCheck = now;
        next(now);
      };
      next(since);
      current.waiting.push(wake);
    });
  }

  /** Its attempts hold their slots longer than a check, and than the process's attempts by far. */
  private slow(slot: Slot): boolean {
    return slot.holdMs > this.waits.checkMs && slot.holdMs > SLOW_FACTOR * this.holdMs;
  }

  /** Attempts in flight to `endpointId`. */
  active(endpointId: string): number {
    return this.slots.get(endpointId)?.active ?? 0;
  }

  private releaser(endpointId: string, slot: Slot): () => void {
    let released = false;
    const since = performance.now();
    return () => {
      if (released) return;
      released = true;
      slot.releasedAt = performance.now();
      const held = slot.releasedAt - since;
      slot.holdMs = average(slot.holdMs, held);
      this.holdMs = average(this.holdMs, held);
      slot.active--;
      const next = slot.waiting.shift();
      if (next) next();
      else if (slot.active === 0) this.slots.delete(endpointId);
    };
  }
}

/** `average` moved towards `latest` (a moving average; the first value taken as it is). */
function average(average: number, latest: number): number {
  return average === 0 ? latest : average + HOLD_WEIGHT * (latest - average);
}
