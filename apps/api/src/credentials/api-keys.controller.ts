import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';

import { AdminOnly } from '../auth/decorators.js';
import { AdminActor } from '../audit/admin-actor.decorator.js';
import { ApiKeysService } from './api-keys.service.js';
import { IssueApiKeyDto } from './dto/issue-credential.dto.js';
import { CredentialRefPipe, type CredentialRef, OrgIdPipe } from '../common/params.js';

@Controller('admin/orgs/:orgId/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  /** The answer holds apiSecret: the only time it is shown. */
  @Post()
  @HttpCode(200)
  @AdminOnly()
  issue(@AdminActor() actor: string, @Param('orgId', OrgIdPipe) orgId: number, @Body() body: IssueApiKeyDto) {
    return this.apiKeys.issue(actor, orgId, body);
  }

  @Get()
  @AdminOnly()
  list(@Param('orgId', OrgIdPipe) orgId: number) {
    return this.apiKeys.list(orgId);
  }

  /** `:id` is the key's id or its public value (pk_…). */
  @Post(':id/revoke')
  @HttpCode(200)
  @AdminOnly()
  revoke(
    @AdminActor() actor: string,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('id', new CredentialRefPipe('pk')) ref: CredentialRef,
  ) {
    return this.apiKeys.revoke(actor, orgId, ref);
  }
}
