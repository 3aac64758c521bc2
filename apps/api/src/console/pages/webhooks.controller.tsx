// Webhook health across organisations (/console/webhooks): each organisation's endpoint with its health (the
// word the organisation's dashboard shows), its FAILED events of the last 24 hours and its last error (by
// default only the endpoints not HEALTHY), and the latest
// FAILED events of every organisation. No admin api route reads this; it is a read for every operator
// (SUPPORT), as the organisations' own pages are.
import { Controller, Get, Query } from '@nestjs/common';

import { RequireRole } from '../../auth/decorators.js';
import { WebhookHealthService } from '../../webhooks/webhook-health.service.js';
import { page } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { type ConsoleContext, OperatorConsole } from '../../operators/console-context.js';
import { ConsoleWebhooksQuery } from '../dto/console-queries.js';
import { WebhooksPage } from '../views/webhooks.js';

@WebPages()
@Controller('console/webhooks')
export class ConsoleWebhooksController {
  constructor(private readonly health: WebhookHealthService) {}

  @Get()
  @RequireRole('SUPPORT')
  async show(@OperatorConsole() ctx: ConsoleContext, @Query() query: ConsoleWebhooksQuery) {
    const show = query.show ?? 'unhealthy';
    const [endpoints, failures] = await Promise.all([
      this.health.endpoints({
        limit: query.limit,
        cursor: query.cursor,
        unhealthyOnly: show === 'unhealthy',
      }),
      this.health.recentFailures(),
    ]);
    return page(
      <WebhooksPage ctx={ctx} show={show} cursor={query.cursor} endpoints={endpoints} failures={failures} />,
    );
  }
}
