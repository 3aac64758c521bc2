// The per-endpoint concurrency cap (docs/decisions.md, "Webhooks"): at most `limit` attempts in flight to one
// endpoint from this process, so one slow receiver cannot take every connection and starve the others.

interface Slot {
  active: number;
  waiting: (() => void)[];
}

export class EndpointSlots {
  private readonly slots = new Map<string, Slot>();

  constructor(private readonly limit: number) {}

  /**
   * A release function once a slot is free, or null if none freed up within `maxWaitMs`: the caller
   * then puts the job back for later instead of holding its batch.
   */
  async acquire(endpointId: string, maxWaitMs: number): Promise<(() => void) | null> {
    let slot = this.slots.get(endpointId);
    if (!slot) {
      slot = { active: 0, waiting: [] };
      this.slots.set(endpointId, slot);
    }
    if (slot.active < this.limit) {
      slot.active++;
      return this.releaser(endpointId, slot);
    }
    const current = slot;
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        current.active++;
        resolve(this.releaser(endpointId, current));
      };
      const timer = setTimeout(() => {
        current.waiting = current.waiting.filter((waiter) => waiter !== wake);
        resolve(null);
      }, maxWaitMs);
      current.waiting.push(wake);
    });
  }

  /** Attempts in flight to `endpointId`. */
  active(endpointId: string): number {
    return this.slots.get(endpointId)?.active ?? 0;
  }

  private releaser(endpointId: string, slot: Slot): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      slot.active--;
      const next = slot.waiting.shift();
      if (next) next();
      else if (slot.active === 0) this.slots.delete(endpointId);
    };
  }
}
