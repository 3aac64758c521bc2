// An organisation's credentials from its console page: issuing an API key or an OAuth client (ADMIN with a
// fresh authenticator code, as the admin routes; the answer page shows the secret once) and revoking one
// (ADMIN). Each through the admin api's service, as the operator.
import { Body, Controller, Param, Post } from '@nestjs/common';

import { auditActor } from '../../audit/admin-actor.decorator.js';
import { RequireRole } from '../../auth/decorators.js';
import { CredentialRefPipe, type CredentialRef, OrgIdPipe } from '../../common/params.js';
import { ApiKeysService } from '../../credentials/api-keys.service.js';
import { IssueApiKeyDto, IssueOAuthClientDto } from '../../credentials/dto/issue-credential.dto.js';
import { OAuthClientsService } from '../../credentials/oauth-clients.service.js';
import { page, redirectTo } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { type ConsoleContext, OperatorConsole } from '../../operators/console-context.js';
import { type FormBody, formInput, formText } from '../../web/forms.js';
import { IssuedPage } from '../views/org-credentials.js';

@WebPages()
@Controller('console/orgs/:orgId')
export class ConsoleOrgCredentialsController {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly clients: OAuthClientsService,
  ) {}

  @Post('api-keys')
  @RequireRole('ADMIN', { stepUp: true })
  async issueApiKey(
    @OperatorConsole() ctx: ConsoleContext,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Body() body: FormBody,
  ) {
    const input = await formInput(IssueApiKeyDto, { label: formText(body, 'label') });
    const key = await this.apiKeys.issue(auditActor(ctx.operator), orgId, input);
    return page(
      <IssuedPage
        ctx={ctx}
        orgId={orgId}
        what="API key"
        facts={[['API key', key.apiKey]]}
        secretLabel="API secret"
        secret={key.apiSecret}
      />,
    );
  }

  @Post('api-keys/:id/revoke')
  @RequireRole('ADMIN')
  async revokeApiKey(
    @OperatorConsole() ctx: ConsoleContext,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('id', new CredentialRefPipe('pk')) ref: CredentialRef,
  ) {
    await this.apiKeys.revoke(auditActor(ctx.operator), orgId, ref);
    return redirectTo(`/console/orgs/${orgId}?done=api-key-revoked`);
  }

  @Post('oauth-clients')
  @RequireRole('ADMIN', { stepUp: true })
  async issueClient(
    @OperatorConsole() ctx: ConsoleContext,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Body() body: FormBody,
  ) {
    const input = await formInput(IssueOAuthClientDto, {
      scopes: formText(body, 'scopes'),
      label: formText(body, 'label'),
    });
    const client = await this.clients.issue(auditActor(ctx.operator), orgId, input);
    return page(
      <IssuedPage
        ctx={ctx}
        orgId={orgId}
        what="OAuth client"
        facts={[
          ['client_id', client.clientId],
          ['Scopes', client.scopes.join(' ')],
        ]}
        secretLabel="client_secret"
        secret={client.clientSecret}
      />,
    );
  }

  @Post('oauth-clients/:id/revoke')
  @RequireRole('ADMIN')
  async revokeClient(
    @OperatorConsole() ctx: ConsoleContext,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('id', new CredentialRefPipe('cl')) ref: CredentialRef,
  ) {
    await this.clients.revoke(auditActor(ctx.operator), orgId, ref);
    return redirectTo(`/console/orgs/${orgId}?done=oauth-client-revoked`);
  }
}
