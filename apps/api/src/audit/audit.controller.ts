import { Controller, Get, Query } from '@nestjs/common';

import { AdminOnly } from '../auth/decorators.js';
import { AuditService } from './audit.service.js';
import { ListAuditQuery } from './dto/list-audit.query.js';

@Controller('admin/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  /** Oldest first, filtered by orgId and action, paginated by cursor. */
  @Get()
  @AdminOnly()
  list(@Query() query: ListAuditQuery) {
    return this.audit.list(query);
  }
}
