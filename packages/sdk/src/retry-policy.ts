// The retry policy: what a client waits before repeating a request that is safe to repeat (exponential
// backoff with equal jitter, or the api's Retry-After), and the wait itself, cut short by an abort.

export interface RetryPolicy {
  /** Retries after the first attempt. Default 2; 0 turns retries off. */
  readonly maxRetries: number;
  /** The first backoff; doubled each retry. Default 500 ms. */
  readonly initialDelayMs: number;
  /** The longest backoff. Default 8000 ms. */
  readonly maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is thrown. Default 60 s. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
});

/** Exponential backoff with equal jitter: between half and all of initial * 2^(attempt-1), capped. */
export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const { initialDelayMs, maxDelayMs } = policy;
  const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Retry-After in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  if (/^[0-9]+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
