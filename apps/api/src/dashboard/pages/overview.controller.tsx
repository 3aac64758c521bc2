// The overview page, and signing the whole organisation out of the dashboard.
import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { ActivityService } from '../../activity/activity.service.js';
import { DashboardRead, DashboardWrite } from '../../auth/decorators.js';
import { OrgsService } from '../../orgs/orgs.service.js';
import { page, redirectTo } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { clearedSetCookie, DASHBOARD_COOKIE } from '../../common/session-cookie.js';
import { WebhookHealthService } from '../../webhooks/webhook-health.service.js';
import { healthView } from '../../webhooks/webhook.view.js';
import { Dashboard, type DashboardContext } from '../dashboard-context.js';
import { DashboardSessionsService } from '../dashboard-sessions.service.js';
import { OverviewPage } from '../views/overview.js';

@WebPages()
@DashboardRead('OVERVIEW')
@Controller('dashboard')
export class OverviewController {
  constructor(
    private readonly orgs: OrgsService,
    private readonly webhookHealth: WebhookHealthService,
    private readonly sessions: DashboardSessionsService,
    private readonly activity: ActivityService,
  ) {}

  @Get()
  async show(@Dashboard() ctx: DashboardContext) {
    const orgId = ctx.session.orgId;
    // The orders' figures only for a session that may see the orders page.
    const [org, health, endpointHealth, deliveries, orders] = await Promise.all([
      this.orgs.own(orgId),
      this.webhookHealth.forOrg(orgId),
      this.webhookHealth.ofOrg(orgId),
      this.activity.deliveries(orgId),
      ctx.session.pages.includes('ORDERS') ? this.activity.ordersPerDay(orgId) : null,
    ]);
    return page(
      <OverviewPage
        ctx={ctx}
        org={org}
        health={health}
        endpointHealth={healthView(endpointHealth)}
        deliveries={deliveries}
        orders={orders}
      />,
    );
  }

  @Post('sign-out-everyone')
  @DashboardWrite('MANAGE_CREDENTIALS')
  async signOutEveryone(
    @Dashboard() ctx: DashboardContext,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.sessions.endAll(ctx.session.orgId);
    void reply.header('set-cookie', clearedSetCookie(request, DASHBOARD_COOKIE));
    return redirectTo('/dashboard/signed-out');
  }
}
