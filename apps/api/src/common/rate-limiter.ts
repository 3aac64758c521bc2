// A fixed-window counter per key, in this process's memory. Enough for the token endpoint's brute-force
// guard: the limit then applies per instance (docs/decisions.md, "Authentication: OAuth tokens").
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Counts one hit for `key`; returns the seconds to wait when over the limit, else 0. */
  hit(key: string, now = Date.now()): number {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size >= this.maxKeys) this.prune(now);
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return window.count > this.limit ? Math.ceil((window.resetAt - now) / 1000) : 0;
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    if (this.windows.size >= this.maxKeys) this.windows.clear();
  }
}
