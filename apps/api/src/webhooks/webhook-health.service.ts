// Webhook health as the api and the pages read it: the one health word of an organisation's endpoint
// (endpoint-health.ts) for the api and its dashboard, every organisation's for the operator console
// (docs/console.md), and the overview's counts. Reads only; the rules of delivery are the worker's.
import { Injectable } from '@nestjs/common';

import { encodeCursor, INT_ID, type Page } from '../common/pagination.js';
import { type EndpointHealth, endpointHealth, type HealthFacts } from './endpoint-health.js';
import {
  type EndpointFacts,
  type RecentFailure,
  type WebhookHealth,
  WebhookHealthRepository,
} from './webhook-health.repository.js';

/** An organisation's endpoint on the console's list, with its health. */
export interface EndpointOnList extends EndpointFacts {
  readonly health: EndpointHealth;
}

/** Endpoints read at most for one page of the unhealthy ones, so a page costs the same however few are. */
export const UNHEALTHY_SCAN_LIMIT = 1000;
const SCAN_CHUNK = 100;

const NONE_REGISTERED: HealthFacts = {
  endpointStatus: null,
  pausedUntil: null,
  recentAttempts: 0,
  recentFailures: 0,
  consecutiveFailures: 0,
  failedEvents: 0,
  lastError: null,
};

@Injectable()
export class WebhookHealthService {
  constructor(private readonly health: WebhookHealthRepository) {}

  /** The health of the organisation's endpoint (NO_ENDPOINT when none is registered). */
  async ofOrg(orgId: number): Promise<EndpointHealth> {
    return endpointHealth((await this.health.orgFacts(orgId)) ?? NONE_REGISTERED, new Date());
  }

  /** The organisation's events by status and attempts by outcome over the last `hours` (default 24). */
  forOrg(orgId: number, hours?: number): Promise<WebhookHealth> {
    return this.health.orgHealth(orgId, hours);
  }

  /**
   * Every organisation's endpoint with its health, by org_id; `unhealthyOnly` keeps those not HEALTHY.
   * The health word is decided in code alone, so that filter reads the endpoints in chunks and stops at a
   * full page or after UNHEALTHY_SCAN_LIMIT endpoints: a page may then be short, and its cursor goes on from
   * the last endpoint read.
   */
  async endpoints(query: {
    limit?: number | undefined;
    cursor?: string | undefined;
    unhealthyOnly: boolean;
  }): Promise<Page<EndpointOnList>> {
    const limit = query.limit ?? 20;
    const now = new Date();
    const withHealth = (facts: EndpointFacts): EndpointOnList => ({
      ...facts,
      health: endpointHealth(facts, now),
    });
    if (!query.unhealthyOnly) {
      const page = await this.health.endpoints({ limit, cursor: query.cursor });
      return { nextCursor: page.nextCursor, items: page.items.map(withHealth) };
    }
    const items: EndpointOnList[] = [];
    let cursor = query.cursor;
    for (let read = 0; read < UNHEALTHY_SCAN_LIMIT; read += SCAN_CHUNK) {
      const chunk = await this.health.endpoints({ limit: SCAN_CHUNK, cursor });
      for (const [index, facts] of chunk.items.entries()) {
        const endpoint = withHealth(facts);
        if (endpoint.health.state === 'HEALTHY') continue;
        items.push(endpoint);
        if (items.length === limit) {
          const more = index < chunk.items.length - 1 || chunk.nextCursor !== null;
          return { items, nextCursor: more ? encodeCursor(endpoint.orgId, INT_ID) : null };
        }
      }
      if (chunk.nextCursor === null) return { items, nextCursor: null };
      cursor = chunk.nextCursor;
    }
    return { items, nextCursor: cursor ?? null };
  }

  /** The latest events of every organisation that failed for good and are still FAILED. */
  recentFailures(limit?: number): Promise<RecentFailure[]> {
    return this.health.recentFailures(limit);
  }
}
