import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';

import { AdminOnly } from '../auth/decorators.js';
import { AdminActor } from '../audit/admin-actor.decorator.js';
import { IssueOAuthClientDto } from './dto/issue-credential.dto.js';
import { OAuthClientsService } from './oauth-clients.service.js';
import { CredentialRefPipe, type CredentialRef, OrgIdPipe } from '../common/params.js';

@Controller('admin/orgs/:orgId')
export class OAuthClientsController {
  constructor(private readonly clients: OAuthClientsService) {}

  /** The answer holds clientSecret: the only time it is shown. */
  @Post('oauth-clients')
  @HttpCode(200)
  @AdminOnly()
  issue(
    @AdminActor() actor: string,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Body() body: IssueOAuthClientDto,
  ) {
    return this.clients.issue(actor, orgId, body);
  }

  @Get('oauth-clients')
  @AdminOnly()
  list(@Param('orgId', OrgIdPipe) orgId: number) {
    return this.clients.list(orgId);
  }

  /** `:id` is the client's id or its client_id (cl_…); its tokens are revoked with it. */
  @Post('oauth-clients/:id/revoke')
  @HttpCode(200)
  @AdminOnly()
  revoke(
    @AdminActor() actor: string,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('id', new CredentialRefPipe('cl')) ref: CredentialRef,
  ) {
    return this.clients.revoke(actor, orgId, ref);
  }

  /** Every live access token of the organisation; its clients stay and may fetch new ones. */
  @Post('tokens/revoke')
  @HttpCode(200)
  @AdminOnly()
  revokeTokens(@AdminActor() actor: string, @Param('orgId', OrgIdPipe) orgId: number) {
    return this.clients.revokeOrgTokens(actor, orgId);
  }
}
