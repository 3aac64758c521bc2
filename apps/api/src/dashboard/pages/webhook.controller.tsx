// Webhook settings (docs/dashboard.md#webhook). Changes go through the api's own register service, which
// runs the challenge; the secret is shown by WebhookSecretService, which audits it.
import { Body, Controller, Get, Post } from '@nestjs/common';

import { DashboardRead, DashboardWrite } from '../../auth/decorators.js';
import { dashboardActor } from '../../audit/admin-actor.decorator.js';
import { AppError, badRequest } from '../../common/errors.js';
import { OrgsService } from '../../orgs/orgs.service.js';
import type { WebhookView } from '../../webhooks/webhook.view.js';
import { WebhookSecretService } from '../../webhooks/webhook-secret.service.js';
import { WebhookTestService } from '../../webhooks/webhook-test.service.js';
import { WebhooksService } from '../../webhooks/webhooks.service.js';
import { type FormBody, formTyped } from '../../web/forms.js';
import { page } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { Dashboard, type DashboardContext } from '../dashboard-context.js';
import { type WebhookOutcome, WebhookPage } from '../views/webhook.js';

@WebPages()
@DashboardRead('WEBHOOK')
@Controller('dashboard/webhook')
export class WebhookPageController {
  constructor(
    private readonly orgs: OrgsService,
    private readonly webhooks: WebhooksService,
    private readonly secrets: WebhookSecretService,
    private readonly tests: WebhookTestService,
  ) {}

  @Get()
  async show(@Dashboard() ctx: DashboardContext) {
    return this.render(ctx);
  }

  @Post()
  @DashboardWrite('MANAGE_WEBHOOKS')
  async change(@Dashboard() ctx: DashboardContext, @Body() body: FormBody) {
    const orgId = ctx.session.orgId;
    const url = formTyped(body, 'url').trim();
    let secret = formTyped(body, 'secret');
    try {
      if (url.length === 0 || url.length > 2048) throw badRequest('url must be 1 to 2048 characters');
      if (secret.length === 0) {
        const current = await this.secrets.forSigning(orgId);
        if (!current) throw badRequest('secret is required to register a webhook');
        secret = current.secret;
      } else if (secret.length < 16 || secret.length > 512) {
        throw badRequest('secret must be 16 to 512 characters');
      }
      const webhook = await this.webhooks.register(orgId, { url, secret });
      return await this.render(ctx, { kind: 'changed', webhook });
    } catch (error) {
      // 400: the form's fault; 409: the new endpoint failed its challenge and the ACTIVE one stays.
      if (error instanceof AppError && (error.status === 400 || error.status === 409)) {
        return this.render(ctx, { kind: 'error', message: error.message }, error.status);
      }
      throw error;
    }
  }

  @Post('reveal')
  @DashboardWrite('REVEAL_SECRET')
  async reveal(@Dashboard() ctx: DashboardContext) {
    const secret = await this.secrets.reveal(ctx.session.orgId, dashboardActor(ctx.session.id));
    return this.render(ctx, { kind: 'secret', secret });
  }

  @Post('test')
  @DashboardWrite('MANAGE_WEBHOOKS')
  async test(@Dashboard() ctx: DashboardContext, @Body() body: FormBody) {
    const sent = await this.tests.send(ctx.session.orgId, formTyped(body, 'eventType') || 'Users');
    return this.render(ctx, { kind: 'test', ...sent });
  }

  private async render(ctx: DashboardContext, outcome?: WebhookOutcome, status = 200) {
    const org = await this.orgs.get(ctx.session.orgId);
    let webhook: WebhookView | null = null;
    try {
      webhook = await this.webhooks.get(ctx.session.orgId);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'not_found')) throw error;
    }
    return page(
      <WebhookPage ctx={ctx} plan={org.plan} webhook={webhook} {...(outcome ? { outcome } : {})} />,
      status,
    );
  }
}
