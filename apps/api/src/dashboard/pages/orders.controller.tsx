// Orders with the api's filters, newest first, and one order.
import { Controller, Get, Param, Query } from '@nestjs/common';

import { DashboardRead } from '../../auth/decorators.js';
import { ListOrdersQuery } from '../../orders/dto/list-orders.query.js';
import { OrdersService } from '../../orders/orders.service.js';
import { page } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { Dashboard, type DashboardContext } from '../dashboard-context.js';
import { OrderPage, OrdersPage } from '../views/orders.js';

@WebPages()
@DashboardRead('ORDERS')
@Controller('dashboard/orders')
export class OrdersPageController {
  constructor(private readonly orders: OrdersService) {}

  @Get()
  async list(@Dashboard() ctx: DashboardContext, @Query() query: ListOrdersQuery) {
    const found = await this.orders.list(ctx.session.orgId, query, 'newest-first');
    return page(<OrdersPage ctx={ctx} query={query} orders={found.items} nextCursor={found.nextCursor} />);
  }

  @Get(':id')
  async show(@Dashboard() ctx: DashboardContext, @Param('id') id: string) {
    return page(<OrderPage ctx={ctx} order={await this.orders.get(ctx.session.orgId, id)} />);
  }
}
