// Which feed prices become price ticks (docs/configuration.md#market-data): a feed may trade many times a
// second, so a pair gets at most one tick per interval, and only when its price changed. A change inside
// the interval is held, later ones replacing it, and kept when the interval is over, so the last price of a
// burst is never lost. The time of each decision is the process's clock; a tick keeps its quote's time.
// Memory: one entry per pair.

export interface SampledTick {
  readonly symbol: string;
  /** Decimal text as stored (8 decimals). */
  readonly price: string;
  readonly at: Date;
}

interface PairState {
  /** When (process clock, ms) the last tick was kept, and its price. */
  keptAt: number;
  keptPrice: string;
  held: SampledTick | undefined;
}

export class TickSampler {
  private readonly pairs = new Map<string, PairState>();

  constructor(private readonly intervalMs: number) {}

  /**
   * A price quoted for a pair: `tick` when it is to be kept now, `held` when it waits for the interval to
   * end, `same` when it is the price already kept (a held change is then dropped) or held.
   */
  offer(tick: SampledTick, now: number): 'tick' | 'held' | 'same' {
    const state = this.pairs.get(tick.symbol);
    if (state && tick.price === state.held?.price) return 'same';
    if (state && tick.price === state.keptPrice) {
      // Back where it was kept: nothing changed since, so nothing waits.
      state.held = undefined;
      return 'same';
    }
    if (state && now - state.keptAt < this.intervalMs) {
      state.held = tick;
      return 'held';
    }
    this.pairs.set(tick.symbol, { keptAt: now, keptPrice: tick.price, held: undefined });
    return 'tick';
  }

  /** Whether a pair has a price waiting for its interval to end. */
  holding(): boolean {
    for (const state of this.pairs.values()) if (state.held) return true;
    return false;
  }

  /** The held prices whose pair's interval is over, now kept. */
  due(now: number): SampledTick[] {
    const due: SampledTick[] = [];
    for (const state of this.pairs.values()) {
      if (state.held && now - state.keptAt >= this.intervalMs) {
        due.push(state.held);
        state.keptAt = now;
        state.keptPrice = state.held.price;
        state.held = undefined;
      }
    }
    return due;
  }
}
