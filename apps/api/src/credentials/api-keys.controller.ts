import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';

import { RequireRole } from '../auth/decorators.js';
import { type AuditActor, AdminActor } from '../audit/admin-actor.decorator.js';
import { ApiKeysService } from './api-keys.service.js';
import { IssueApiKeyDto } from './dto/issue-credential.dto.js';
import { CredentialRefPipe, type CredentialRef, OrgIdPipe } from '../common/params.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

@ApiTags('Operator: Credentials')
@Controller('admin/orgs/:orgId/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  /** The answer holds apiSecret: the only time it is shown. */
  @ApiRoute({
    summary: 'Issue an API key',
    description:
      'Issues an API key for the organisation. The answer holds apiSecret: the only time it is shown. Audited.',
    data: 'IssuedApiKey',
    errors: [404],
  })
  @Post()
  @HttpCode(200)
  @RequireRole('ADMIN', { stepUp: true })
  issue(
    @AdminActor() actor: AuditActor,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Body() body: IssueApiKeyDto,
  ) {
    return this.apiKeys.issue(actor, orgId, body);
  }

  @ApiRoute({
    summary: 'List API keys',
    description: "The organisation's API keys, live and revoked; never their secrets.",
    data: 'ApiKeyList',
    errors: [404],
  })
  @Get()
  @RequireRole('SUPPORT')
  list(@Param('orgId', OrgIdPipe) orgId: number) {
    return this.apiKeys.list(orgId);
  }

  /** `:id` is the key's id or its public value (pk_…). */
  @ApiRoute({
    summary: 'Revoke an API key',
    description:
      'Revokes a key named by its id or its public value (pk_…); requests signed with it fail from then on. Audited.',
    data: 'ApiKey',
    errors: [404],
  })
  @Post(':id/revoke')
  @HttpCode(200)
  @RequireRole('ADMIN')
  revoke(
    @AdminActor() actor: AuditActor,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('id', new CredentialRefPipe('pk')) ref: CredentialRef,
  ) {
    return this.apiKeys.revoke(actor, orgId, ref);
  }
}
