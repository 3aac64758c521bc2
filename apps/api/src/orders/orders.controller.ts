import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';

import { Caller, RequireScope } from '../auth/decorators.js';
import type { Principal } from '../auth/principal.js';
import { CreateOrderDto } from './dto/create-order.dto.js';
import { ListOrdersQuery } from './dto/list-orders.query.js';
import { OrdersService } from './orders.service.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

@ApiTags('Orders')
@Controller('orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @ApiRoute({
    summary: 'Place a market order',
    description:
      'Places a market order for a user, by base `quantity` or by `quoteQuantity` (exactly one). `clientOrderId` makes it idempotent: the same id with the same parameters answers the same order, with other parameters a 409. A refused order (limits, KYC, prices) is a 200 with status REJECTED and its rejectionReason.',
    data: 'Order',
    errors: [404, 409],
  })
  @Post()
  @HttpCode(200)
  @RequireScope('BASE_MODULE:WRITE')
  place(@Caller() caller: Principal, @Body() body: CreateOrderDto) {
    return this.orders.place(caller.orgId, body);
  }

  @ApiRoute({
    summary: 'List orders',
    description:
      "The organisation's orders, oldest first, filtered by user, symbol, side, status or clientOrderId; paginated by cursor.",
    data: { page: 'Order' },
  })
  @Get()
  @RequireScope('BASE_MODULE:READ')
  list(@Caller() caller: Principal, @Query() query: ListOrdersQuery) {
    return this.orders.list(caller.orgId, query);
  }

  @ApiRoute({
    summary: 'Get an order',
    description: 'One order of the organisation, by its id.',
    data: 'Order',
    errors: [404],
  })
  @Get(':id')
  @RequireScope('BASE_MODULE:READ')
  get(@Caller() caller: Principal, @Param('id') id: string) {
    return this.orders.get(caller.orgId, id);
  }
}

@ApiTags('Orders')
@Controller('user/:orgUserId/positions')
export class PositionsController {
  constructor(private readonly orders: OrdersService) {}

  @ApiRoute({
    summary: "Get a user's positions",
    description: "The user's non-zero positions, by asset code, as the filled orders left them.",
    data: 'Positions',
    errors: [404],
  })
  @Get()
  @RequireScope('BASE_MODULE:READ')
  list(@Caller() caller: Principal, @Param('orgUserId') orgUserId: string) {
    return this.orders.positions(caller.orgId, orgUserId);
  }
}
