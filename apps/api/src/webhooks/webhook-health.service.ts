// Webhook health as the pages read it: one organisation's for its dashboard, every organisation's for the
// operator console (docs/console.md). Reads only; the rules of delivery are the worker's.
import { Injectable } from '@nestjs/common';

import type { Page } from '../common/pagination.js';
import {
  type EndpointHealth,
  type RecentFailure,
  type WebhookHealth,
  WebhookHealthRepository,
} from './webhook-health.repository.js';

@Injectable()
export class WebhookHealthService {
  constructor(private readonly health: WebhookHealthRepository) {}

  /** The organisation's events by status and attempts by outcome over the last `hours` (default 24). */
  forOrg(orgId: number, hours?: number): Promise<WebhookHealth> {
    return this.health.orgHealth(orgId, hours);
  }

  /** Every organisation's endpoint a page at a time; `failingOnly` keeps the failing ones. */
  endpoints(query: {
    limit?: number | undefined;
    cursor?: string | undefined;
    failingOnly: boolean;
  }): Promise<Page<EndpointHealth>> {
    return this.health.endpoints(query);
  }

  /** The latest events of every organisation that failed for good and are still FAILED. */
  recentFailures(limit?: number): Promise<RecentFailure[]> {
    return this.health.recentFailures(limit);
  }
}
