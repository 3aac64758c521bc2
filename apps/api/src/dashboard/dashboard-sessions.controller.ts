import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { Caller, RequireScope } from '../auth/decorators.js';
import { requestOrigin } from '../common/request-origin.js';
import type { Principal } from '../auth/principal.js';
import { ApiRoute } from '../openapi/route.decorators.js';
import { DashboardSessionsService } from './dashboard-sessions.service.js';
import { CreateDashboardSessionDto } from './dto/create-dashboard-session.dto.js';

/** The organisation's backend asks here for links to its dashboard (docs/dashboard.md#signing-in). */
@ApiTags('Dashboard')
@Controller('dashboard/sessions')
export class DashboardSessionsController {
  constructor(private readonly sessions: DashboardSessionsService) {}

  @ApiRoute({
    summary: 'Create a dashboard sign-in link',
    description:
      "A single-use URL that signs a person into the organisation's dashboard (/dashboard/). Give it to the person who needs it: it must be opened within minutes (expiresAt), and the session it starts lasts lifetimeSeconds (default 1 hour, at most 7 days). Without permissions the session only reads. The session may hold only what the caller may do: a permission or page needing a scope the caller's token does not hold is refused (403 naming the scope), and without pages it sees every page the caller may read. Revoking the API key or OAuth client that asked for the link ends it and its session.",
    data: 'DashboardLink',
    errors: [403],
  })
  @Post()
  @HttpCode(200)
  @RequireScope('BASE_MODULE:WRITE')
  create(
    @Caller() caller: Principal,
    @Body() body: CreateDashboardSessionDto,
    @Req() request: FastifyRequest,
  ) {
    return this.sessions.createLink(caller, body, requestOrigin(request));
  }

  @ApiRoute({
    summary: 'End every dashboard session',
    description:
      "Signs everyone out of the organisation's dashboard at once and voids the links not opened yet (a link that leaked, someone who left).",
    data: 'DashboardSessionsEnded',
  })
  @Post('revoke')
  @HttpCode(200)
  @RequireScope('BASE_MODULE:WRITE')
  revokeAll(@Caller() caller: Principal) {
    return this.sessions.endAll(caller.orgId);
  }
}
