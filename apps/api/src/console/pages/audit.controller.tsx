// The audit log (/console/audit): the admin api's AuditService list with its filters (operator by e-mail or
// id, organisation, action, time) and its keyset pages, the newest first; every operator (SUPPORT) may read
// it, as on the api.
import { Controller, Get, Query } from '@nestjs/common';

import { AuditService } from '../../audit/audit.service.js';
import { ListAuditQuery } from '../../audit/dto/list-audit.query.js';
import { RequireRole } from '../../auth/decorators.js';
import { page } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { type ConsoleContext, OperatorConsole } from '../../operators/console-context.js';
import { AuditPage } from '../views/audit.js';

@WebPages()
@Controller('console/audit')
export class ConsoleAuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @RequireRole('SUPPORT')
  async list(@OperatorConsole() ctx: ConsoleContext, @Query() query: ListAuditQuery) {
    const found = await this.audit.list(query, 'newest-first');
    return page(<AuditPage ctx={ctx} query={query} entries={found} />);
  }
}
