// API keys and OAuth clients: list with last use, and revocation through the api's own services (audited
// there, as this session).
import { Controller, Get, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';

import { DashboardRead, DashboardWrite } from '../../auth/decorators.js';
import { dashboardActor } from '../../audit/admin-actor.decorator.js';
import { ApiKeysService } from '../../credentials/api-keys.service.js';
import { OAuthClientsService } from '../../credentials/oauth-clients.service.js';
import { page, redirectTo } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { Dashboard, type DashboardContext } from '../dashboard-context.js';
import { CredentialsPage } from '../views/credentials.js';

const NOTICES: Readonly<Record<string, string>> = {
  'api-key': 'The API key is revoked: requests signed with it now fail.',
  'oauth-client': 'The OAuth client and its tokens are revoked.',
};

const actor = (ctx: DashboardContext) => dashboardActor(ctx.session.id);

@WebPages()
@DashboardRead('CREDENTIALS')
@Controller('dashboard/credentials')
export class CredentialsPageController {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly clients: OAuthClientsService,
  ) {}

  @Get()
  async show(@Dashboard() ctx: DashboardContext, @Query('revoked') revoked?: string) {
    const orgId = ctx.session.orgId;
    const [keys, clients] = await Promise.all([this.apiKeys.list(orgId), this.clients.list(orgId)]);
    return page(
      <CredentialsPage
        ctx={ctx}
        apiKeys={keys.items}
        clients={clients.items}
        notice={revoked ? NOTICES[revoked] : undefined}
      />,
    );
  }

  @Post('api-keys/:id/revoke')
  @DashboardWrite('MANAGE_CREDENTIALS')
  async revokeApiKey(@Dashboard() ctx: DashboardContext, @Param('id', new ParseUUIDPipe()) id: string) {
    await this.apiKeys.revoke(actor(ctx), ctx.session.orgId, { id });
    return redirectTo('/dashboard/credentials?revoked=api-key');
  }

  @Post('oauth-clients/:id/revoke')
  @DashboardWrite('MANAGE_CREDENTIALS')
  async revokeClient(@Dashboard() ctx: DashboardContext, @Param('id', new ParseUUIDPipe()) id: string) {
    await this.clients.revoke(actor(ctx), ctx.session.orgId, { id });
    return redirectTo('/dashboard/credentials?revoked=oauth-client');
  }
}
