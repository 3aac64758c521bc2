import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';

import { AdminOnly } from '../auth/decorators.js';
import { AdminActor } from '../audit/admin-actor.decorator.js';
import { OrgIdPipe } from '../common/params.js';
import { PageQuery } from '../common/pagination.js';
import { CreateOrgDto } from './dto/create-org.dto.js';
import { UpdateOrgDto } from './dto/update-org.dto.js';
import { OrgsService } from './orgs.service.js';

/** Organisations on the operator surface. */
@Controller('admin/orgs')
export class AdminOrgsController {
  constructor(private readonly orgs: OrgsService) {}

  @Post()
  @HttpCode(200)
  @AdminOnly()
  create(@AdminActor() actor: string, @Body() body: CreateOrgDto) {
    return this.orgs.create(actor, body);
  }

  @Get()
  @AdminOnly()
  list(@Query() query: PageQuery) {
    return this.orgs.list(query);
  }

  @Get(':orgId')
  @AdminOnly()
  get(@Param('orgId', OrgIdPipe) orgId: number) {
    return this.orgs.get(orgId);
  }

  @Patch(':orgId')
  @AdminOnly()
  update(@AdminActor() actor: string, @Param('orgId', OrgIdPipe) orgId: number, @Body() body: UpdateOrgDto) {
    return this.orgs.update(actor, orgId, body);
  }
}
