import { Controller, Get, Query } from '@nestjs/common';

import { RequireRole } from '../auth/decorators.js';
import { AuditService } from './audit.service.js';
import { ListAuditQuery } from './dto/list-audit.query.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

@ApiTags('Operator: Audit')
@Controller('admin/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  /** Oldest first, filtered by operator, organisation, action and time, paginated by cursor. */
  @ApiRoute({
    summary: 'List the audit log',
    description:
      'Every operator write, oldest first, naming the operator who made it (from their session or token); ' +
      'filtered by operator, organisation, action and time; paginated by cursor.',
    data: { page: 'AuditEntry' },
  })
  @Get()
  @RequireRole('SUPPORT')
  list(@Query() query: ListAuditQuery) {
    return this.audit.list(query);
  }
}
