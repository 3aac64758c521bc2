import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';

import { AdminOnly } from '../auth/decorators.js';
import { PageQuery } from '../common/pagination.js';
import { AdminActor } from './admin-actor.decorator.js';
import { CreateOrgDto } from './dto/create-org.dto.js';
import { UpdateOrgDto } from './dto/update-org.dto.js';
import { OrgIdPipe } from './params.js';
import { OrgsService } from './orgs.service.js';

@Controller('api/v1/admin/orgs')
export class OrgsController {
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
