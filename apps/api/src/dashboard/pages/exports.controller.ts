// The dashboard's CSV exports (docs/dashboard.md#exports): the organisation's orders and events created in a
// time range, streamed as they are read. Each needs the page its rows are on, as the page itself does, and
// reads only the session's organisation.
import { Controller, Get, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

import { DashboardRead } from '../../auth/decorators.js';
import { ExportRangeQuery, rangeName, timeRange } from '../../common/export-range.js';
import { EventLogService } from '../../event-log/event-log.service.js';
import { OrdersService } from '../../orders/orders.service.js';
import { sendCsv } from '../../web/csv-answer.js';
import { WebFiles } from '../../web/web-pages.decorator.js';
import { Dashboard, type DashboardContext } from '../dashboard-context.js';

@WebFiles()
@Controller('dashboard')
export class DashboardExportsController {
  constructor(
    private readonly orders: OrdersService,
    private readonly events: EventLogService,
  ) {}

  @Get('orders/export.csv')
  @DashboardRead('ORDERS')
  exportOrders(
    @Dashboard() ctx: DashboardContext,
    @Query() query: ExportRangeQuery,
    @Res() reply: FastifyReply,
  ) {
    const range = timeRange(query);
    const orgId = ctx.session.orgId;
    return sendCsv(reply, `orders-${orgId}-${rangeName(range)}.csv`, this.orders.exportCsv(orgId, range));
  }

  @Get('events/export.csv')
  @DashboardRead('EVENTS')
  exportEvents(
    @Dashboard() ctx: DashboardContext,
    @Query() query: ExportRangeQuery,
    @Res() reply: FastifyReply,
  ) {
    const range = timeRange(query);
    const orgId = ctx.session.orgId;
    return sendCsv(reply, `events-${orgId}-${rangeName(range)}.csv`, this.events.exportCsv(orgId, range));
  }
}
