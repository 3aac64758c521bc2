import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';

import { Caller, RequireScope } from '../auth/decorators.js';
import type { Principal } from '../auth/principal.js';
import { CreateOrderDto } from './dto/create-order.dto.js';
import { ListOrdersQuery } from './dto/list-orders.query.js';
import { OrdersService } from './orders.service.js';

@Controller('orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('BASE_MODULE:WRITE')
  place(@Caller() caller: Principal, @Body() body: CreateOrderDto) {
    return this.orders.place(caller.orgId, body);
  }

  @Get()
  @RequireScope('BASE_MODULE:READ')
  list(@Caller() caller: Principal, @Query() query: ListOrdersQuery) {
    return this.orders.list(caller.orgId, query);
  }

  @Get(':id')
  @RequireScope('BASE_MODULE:READ')
  get(@Caller() caller: Principal, @Param('id') id: string) {
    return this.orders.get(caller.orgId, id);
  }
}

@Controller('user/:orgUserId/positions')
export class PositionsController {
  constructor(private readonly orders: OrdersService) {}

  @Get()
  @RequireScope('BASE_MODULE:READ')
  list(@Caller() caller: Principal, @Param('orgUserId') orgUserId: string) {
    return this.orders.positions(caller.orgId, orgUserId);
  }
}
