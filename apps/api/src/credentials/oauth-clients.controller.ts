import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';

import { RequireRole } from '../auth/decorators.js';
import { type AuditActor, AdminActor } from '../audit/admin-actor.decorator.js';
import { IssueOAuthClientDto } from './dto/issue-credential.dto.js';
import { OAuthClientsService } from './oauth-clients.service.js';
import { CredentialRefPipe, type CredentialRef, OrgIdPipe } from '../common/params.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

@ApiTags('Operator: Credentials')
@Controller('admin/orgs/:orgId')
export class OAuthClientsController {
  constructor(private readonly clients: OAuthClientsService) {}

  /** The answer holds clientSecret: the only time it is shown. */
  @ApiRoute({
    summary: 'Issue an OAuth client',
    description:
      'Issues an OAuth client granted `scopes`. The answer holds clientSecret: the only time it is shown. Audited.',
    data: 'IssuedOAuthClient',
    errors: [404],
  })
  @Post('oauth-clients')
  @HttpCode(200)
  @RequireRole('ADMIN', { stepUp: true })
  issue(
    @AdminActor() actor: AuditActor,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Body() body: IssueOAuthClientDto,
  ) {
    return this.clients.issue(actor, orgId, body);
  }

  @ApiRoute({
    summary: 'List OAuth clients',
    description: "The organisation's OAuth clients, live and revoked; never their secrets.",
    data: 'OAuthClientList',
    errors: [404],
  })
  @Get('oauth-clients')
  @RequireRole('SUPPORT')
  list(@Param('orgId', OrgIdPipe) orgId: number) {
    return this.clients.list(orgId);
  }

  /** `:id` is the client's id or its client_id (cl_…); its tokens are revoked with it. */
  @ApiRoute({
    summary: 'Revoke an OAuth client',
    description: 'Revokes a client named by its id or its client_id (cl_…), and its tokens with it. Audited.',
    data: 'RevokedOAuthClient',
    errors: [404],
  })
  @Post('oauth-clients/:id/revoke')
  @HttpCode(200)
  @RequireRole('ADMIN')
  revoke(
    @AdminActor() actor: AuditActor,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('id', new CredentialRefPipe('cl')) ref: CredentialRef,
  ) {
    return this.clients.revoke(actor, orgId, ref);
  }

  /** Every live access token of the organisation; its clients stay and may fetch new ones. */
  @ApiRoute({
    summary: "Revoke the organisation's tokens",
    description:
      'Revokes every live access token of the organisation; its clients stay and may fetch new ones. Audited.',
    data: 'TokensRevoked',
    errors: [404],
  })
  @Post('tokens/revoke')
  @HttpCode(200)
  @RequireRole('ADMIN')
  revokeTokens(@AdminActor() actor: AuditActor, @Param('orgId', OrgIdPipe) orgId: number) {
    return this.clients.revokeOrgTokens(actor, orgId);
  }
}
