import { Controller, Get } from '@nestjs/common';

import { Caller, RequireScope } from '../auth/decorators.js';
import type { Principal } from '../auth/principal.js';
import { OrgsService } from './orgs.service.js';

/** The organisation's own view of itself. */
@Controller('org')
export class OrgController {
  constructor(private readonly orgs: OrgsService) {}

  /** Spec 4.4: the caller's own organisation. Query parameters are signed but not used. */
  @Get()
  @RequireScope('BASE_MODULE:READ')
  get(@Caller() caller: Principal) {
    return this.orgs.own(caller.orgId);
  }
}
