// The console's home page (/console/): every operator may open it. Besides who is signed in, the waiting
// work (KYC cases and the oldest, failing webhook endpoints, halted pairs) and charts of every
// organisation's deliveries and orders, read through the features' services.
import { Controller, Get } from '@nestjs/common';

import { ActivityService } from '../../activity/activity.service.js';
import { RequireRole } from '../../auth/decorators.js';
import { NoticesService } from '../../notices/notices.service.js';
import { WebhookHealthService } from '../../webhooks/webhook-health.service.js';
import { page } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { type ConsoleContext, OperatorConsole } from '../../operators/console-context.js';
import { HomePage } from '../views/home.js';

/** Failing endpoints counted at most; more reads as "100 or more" (the webhooks page lists them all). */
export const FAILING_COUNT_CAP = 100;

@WebPages()
@Controller('console')
export class ConsoleHomeController {
  constructor(
    private readonly activity: ActivityService,
    private readonly health: WebhookHealthService,
    private readonly notices: NoticesService,
  ) {}

  @Get()
  @RequireRole('SUPPORT')
  async show(@OperatorConsole() ctx: ConsoleContext) {
    const now = new Date();
    const [kyc, failing, halts, deliveries, orders] = await Promise.all([
      this.activity.kycQueue(now),
      this.health.endpoints({ limit: FAILING_COUNT_CAP, unhealthyOnly: true }),
      this.notices.halts(),
      this.activity.deliveries(null, now),
      this.activity.ordersPerDay(null, now),
    ]);
    const halted = halts.filter((halt) => !halt.startsAt || halt.startsAt <= now);
    return page(
      <HomePage
        ctx={ctx}
        waiting={{
          kyc,
          failingEndpoints: { count: failing.items.length, more: failing.nextCursor !== null },
          haltedPairs: halted.map((halt) => halt.symbol),
          haltsToCome: halts.length - halted.length,
        }}
        deliveries={deliveries}
        orders={orders}
        now={now}
      />,
    );
  }
}
