import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';

import { RequireRole } from '../auth/decorators.js';
import { type AuditActor, AdminActor } from '../audit/admin-actor.decorator.js';
import { OrgIdPipe } from '../common/params.js';
import { PageQuery } from '../common/pagination.js';
import { CreateOrgDto } from './dto/create-org.dto.js';
import { UpdateOrgDto } from './dto/update-org.dto.js';
import { OrgsService } from './orgs.service.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

/** Organisations on the operator surface. */
@ApiTags('Operator: Organisations')
@Controller('admin/orgs')
export class AdminOrgsController {
  constructor(private readonly orgs: OrgsService) {}

  @ApiRoute({
    summary: 'Create an organisation',
    description:
      'Creates an organisation with the default policy; credentials are issued separately. Audited.',
    data: 'AdminOrganisation',
  })
  @Post()
  @HttpCode(200)
  @RequireRole('ADMIN')
  create(@AdminActor() actor: AuditActor, @Body() body: CreateOrgDto) {
    return this.orgs.create(actor, body);
  }

  @ApiRoute({
    summary: 'List organisations',
    description: 'Every organisation, by id; paginated by cursor.',
    data: { page: 'AdminOrganisation' },
  })
  @Get()
  @RequireRole('SUPPORT')
  list(@Query() query: PageQuery) {
    return this.orgs.list(query);
  }

  @ApiRoute({
    summary: 'Get an organisation',
    description: 'One organisation, by id.',
    data: 'AdminOrganisation',
    errors: [404],
  })
  @Get(':orgId')
  @RequireRole('SUPPORT')
  get(@Param('orgId', OrgIdPipe) orgId: number) {
    return this.orgs.get(orgId);
  }

  @ApiRoute({
    summary: 'Update an organisation',
    description: 'Changes the fields sent; supportEmails replaces the list. Audited.',
    data: 'AdminOrganisation',
    errors: [404],
  })
  @Patch(':orgId')
  @RequireRole('ADMIN')
  update(
    @AdminActor() actor: AuditActor,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Body() body: UpdateOrgDto,
  ) {
    return this.orgs.update(actor, orgId, body);
  }
}
