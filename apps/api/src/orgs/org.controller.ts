import { Controller, Get } from '@nestjs/common';
import { Organisation, WebhookEndpoint } from '@svc/db';
import { DataSource } from 'typeorm';

import { Caller, RequireScope } from '../auth/decorators.js';
import type { Principal } from '../auth/principal.js';
import { notFound } from '../common/errors.js';
import { orgView } from './org.view.js';

@Controller('api/v1/org')
export class OrgController {
  constructor(private readonly dataSource: DataSource) {}

  /** Spec 4.4: the caller's own organisation. Query parameters are signed but not used. */
  @Get()
  @RequireScope('BASE_MODULE:READ')
  async get(@Caller() caller: Principal) {
    const org = await this.dataSource.getRepository(Organisation).findOneBy({ id: caller.orgId });
    if (!org) throw notFound('the organisation no longer exists');
    const webhook = await this.dataSource.getRepository(WebhookEndpoint).findOneBy({ orgId: caller.orgId });
    return orgView(org, webhook ? { url: webhook.url, status: webhook.status } : null);
  }
}
