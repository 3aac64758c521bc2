// The audit log (/console/audit): the admin api's AuditService list with its filters (operator by e-mail or
// id, organisation, action, time) and its keyset pages, the newest first, and its CSV export; every operator
// (SUPPORT) may read it, as on the api.
import { Controller, Get, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

import { AuditService } from '../../audit/audit.service.js';
import { ListAuditQuery } from '../../audit/dto/list-audit.query.js';
import { RequireRole } from '../../auth/decorators.js';
import { ExportRangeQuery, rangeName, timeRange } from '../../common/export-range.js';
import { sendCsv } from '../../web/csv-answer.js';
import { page } from '../../web/web-answer.js';
import { WebFiles, WebPages } from '../../web/web-pages.decorator.js';
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

/** The audit log as CSV for a time range (docs/console.md#audit-log), streamed; the page's role. */
@WebFiles()
@Controller('console/audit')
export class ConsoleAuditExportController {
  constructor(private readonly audit: AuditService) {}

  @Get('export.csv')
  @RequireRole('SUPPORT')
  export(@Query() query: ExportRangeQuery, @Res() reply: FastifyReply) {
    const range = timeRange(query);
    return sendCsv(reply, `audit-${rangeName(range)}.csv`, this.audit.exportCsv(range));
  }
}
