// The overview page, and signing the whole organisation out of the dashboard.
import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

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
  ) {}

  @Get()
  async show(@Dashboard() ctx: DashboardContext) {
    const orgId = ctx.session.orgId;
    const [org, health, endpointHealth] = await Promise.all([
      this.orgs.own(orgId),
      this.webhookHealth.forOrg(orgId),
      this.webhookHealth.ofOrg(orgId),
    ]);
    return page(
      <OverviewPage ctx={ctx} org={org} health={health} endpointHealth={healthView(endpointHealth)} />,
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
