import { Controller, Get } from '@nestjs/common';

import { Caller, RequireScope } from '../auth/decorators.js';
import type { Principal } from '../auth/principal.js';
import { OrgsService } from './orgs.service.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

/** The organisation's own view of itself. */
@ApiTags('Organisation')
@Controller('org')
export class OrgController {
  constructor(private readonly orgs: OrgsService) {}

  /** docs/api-guide.md#base-url-and-versioning: the caller's own organisation. Query parameters are signed but not used. */
  @ApiRoute({
    summary: 'Get the organisation',
    description:
      "The caller's own organisation: plan, KYC domain, support addresses, trading policy and webhook.",
    data: 'Organisation',
    errors: [404],
  })
  @Get()
  @RequireScope('BASE_MODULE:READ')
  get(@Caller() caller: Principal) {
    return this.orgs.own(caller.orgId);
  }
}
