import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';

import { Caller, RequireScope } from '../auth/decorators.js';
import type { Principal } from '../auth/principal.js';
import { CreateOrderDto } from './dto/create-order.dto.js';
import { ListOrdersQuery } from './dto/list-orders.query.js';
import { ReplaceOrderDto } from './dto/replace-order.dto.js';
import { OrderChangesService } from './order-changes.service.js';
import { OrdersService } from './orders.service.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

@ApiTags('Orders')
@Controller('orders')
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly changes: OrderChangesService,
  ) {}

  @ApiRoute({
    summary: 'Place an order',
    description:
      'Places an order for a user. MARKET: by base `quantity` or by `quoteQuantity` (exactly one), filled in full at once or refused. LIMIT (`limitPrice`), STOP (`stopPrice`) and STOP_LIMIT (both): by `quantity`, with `timeInForce` GTC (default), IOC, FOK (LIMIT only), DAY (until the next 00:00 UTC) or GTD (until `expireAt`); they fill at once as far as the book allows and rest otherwise. `clientOrderId` makes it idempotent: the same id with the same parameters answers the same order, with other parameters a 409. A refused order (limits, KYC, prices, liquidity) is a 200 with status REJECTED and its rejectionReason.',
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

  @ApiRoute({
    summary: 'Get an order by clientOrderId',
    description: 'One order of the organisation, by the clientOrderId it was placed with.',
    data: 'Order',
    errors: [404],
  })
  @Get('client/:clientOrderId')
  @RequireScope('BASE_MODULE:READ')
  getByClientOrderId(@Caller() caller: Principal, @Param('clientOrderId') clientOrderId: string) {
    return this.orders.getByClientOrderId(caller.orgId, clientOrderId);
  }

  @ApiRoute({
    summary: 'Cancel an order',
    description:
      'Cancels the rest of an open order (PENDING or PARTIALLY_FILLED: what filled stays filled); answers it CANCELLED with cancelReason REQUESTED. An order already final (COMPLETED, CANCELLED, EXPIRED, REJECTED, FAILED) is a 409 naming its status.',
    data: 'Order',
    errors: [404, 409],
  })
  @Delete(':id')
  @RequireScope('BASE_MODULE:WRITE')
  cancel(@Caller() caller: Principal, @Param('id') id: string) {
    return this.changes.cancel(caller.orgId, { id });
  }

  @ApiRoute({
    summary: 'Cancel an order by clientOrderId',
    description: 'As DELETE /api/v1/orders/{id}/, naming the order by its clientOrderId.',
    data: 'Order',
    errors: [404, 409],
  })
  @Delete('client/:clientOrderId')
  @RequireScope('BASE_MODULE:WRITE')
  cancelByClientOrderId(@Caller() caller: Principal, @Param('clientOrderId') clientOrderId: string) {
    return this.changes.cancel(caller.orgId, { clientOrderId });
  }

  @ApiRoute({
    summary: 'Replace an order',
    description:
      "Replaces an open order by a new one with the same user, symbol, side and type: what the body leaves out (quantity: what was left to fill; prices, timeInForce, a GTD expireAt) is the old order's. The old order becomes CANCELLED with cancelReason REPLACED and the new one is placed with `replaces` = the old id, in one transaction; the answer is the new order. A retry with the same clientOrderId answers the same new order. A final order is a 409 naming its status; a replacement the checks would refuse is a 409 too, and the old order stays as it was.",
    data: 'Order',
    errors: [404, 409],
  })
  @Patch(':id')
  @RequireScope('BASE_MODULE:WRITE')
  replace(@Caller() caller: Principal, @Param('id') id: string, @Body() body: ReplaceOrderDto) {
    return this.changes.replace(caller.orgId, id, body);
  }
}

@ApiTags('Orders')
@Controller('user/:orgUserId/orders')
export class UserOrdersController {
  constructor(private readonly changes: OrderChangesService) {}

  @ApiRoute({
    summary: "Cancel a user's open orders",
    description:
      'Cancels every open order of the user (PENDING or PARTIALLY_FILLED), oldest first; answers them, CANCELLED with cancelReason REQUESTED. None open: an empty list.',
    data: 'OrderList',
    errors: [404],
  })
  @Delete()
  @RequireScope('BASE_MODULE:WRITE')
  cancelAll(@Caller() caller: Principal, @Param('orgUserId') orgUserId: string) {
    return this.changes.cancelAll(caller.orgId, orgUserId);
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
