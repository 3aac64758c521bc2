// Receivers that ask for time (docs/decisions.md, "Webhooks: a receiver's Retry-After"): a 429
// or 503 with Retry-After pauses its whole endpoint until then, capped. The pause is stored on the endpoint
// (paused_until) for every worker process, and kept here too, so that the jobs of a batch still waiting for
// a slot of that endpoint see it before their attempt rather than at the next batch.
import { query } from '@svc/db';
import type { EntityManager } from 'typeorm';

/** The endpoint as the worker loaded it: a pause belongs to the endpoint at that url. */
export interface PausedEndpoint {
  readonly endpoint_id: string | null;
  readonly url: string | null;
  readonly paused_until: Date | null;
}

export interface Pause {
  readonly endpointId: string;
  readonly url: string;
  readonly until: Date;
}

/** Entries kept at most; past ones are dropped as they are read. */
const MAX_ENTRIES = 10_000;

export class EndpointPauses {
  private readonly local = new Map<string, number>();

  constructor(private readonly maxMs: number) {}

  /** When the endpoint may be tried again (ms), or 0 when it is not paused. */
  until(endpoint: PausedEndpoint, now: number): number {
    const key = keyOf(endpoint);
    const local = this.local.get(key) ?? 0;
    if (local !== 0 && local <= now) this.local.delete(key);
    const stored = endpoint.paused_until?.getTime() ?? 0;
    const until = Math.max(local, stored);
    return until > now ? until : 0;
  }

  /** Notes the receiver's Retry-After (ms from `now`), capped; answers the pause to store. */
  note(endpoint: PausedEndpoint, retryAfterMs: number, now: number): Pause | null {
    if (!endpoint.endpoint_id || !endpoint.url) return null;
    const until = now + Math.min(retryAfterMs, this.maxMs);
    if (until <= now) return null;
    if (this.local.size >= MAX_ENTRIES) this.local.clear();
    const key = keyOf(endpoint);
    this.local.set(key, Math.max(until, this.local.get(key) ?? 0));
    return { endpointId: endpoint.endpoint_id, url: endpoint.url, until: new Date(until) };
  }
}

/**
 * Stores the pauses, in the transaction that records the attempts. A pause never shortens a longer one,
 * and applies only while the endpoint still has the url that asked (a new registration ends it).
 */
export async function storePauses(manager: EntityManager, pauses: readonly Pause[]): Promise<void> {
  if (pauses.length === 0) return;
  await query(
    manager,
    `UPDATE webhook_endpoints w SET paused_until = GREATEST(w.paused_until, v.until)
       FROM (SELECT id, url, max(until) AS until FROM unnest($1::uuid[], $2::text[], $3::timestamptz[])
               AS p(id, url, until) GROUP BY id, url ORDER BY id) AS v
      WHERE w.id = v.id AND w.url = v.url`,
    [pauses.map((p) => p.endpointId), pauses.map((p) => p.url), pauses.map((p) => p.until.toISOString())],
  );
}

function keyOf(endpoint: PausedEndpoint): string {
  return `${endpoint.endpoint_id ?? ''} ${endpoint.url ?? ''}`;
}
