import { Body, Controller, Delete, Get, Param, Put, Query } from '@nestjs/common';

import { type AuditActor, AdminActor } from '../audit/admin-actor.decorator.js';
import { SymbolPipe } from '../common/params.js';
import { RequireRole } from '../auth/decorators.js';
import { PageQuery } from '../common/pagination.js';
import { ListTicksQuery } from './dto/list-ticks.query.js';
import { SetPriceDto } from './dto/set-price.dto.js';
import { PricesService } from './prices.service.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

@ApiTags('Operator: Trading')
@Controller('admin/prices')
export class PricesController {
  constructor(private readonly prices: PricesService) {}

  @ApiRoute({
    summary: 'List prices',
    description: 'Every operator price, by symbol; paginated by cursor.',
    data: { page: 'Price' },
  })
  @Get()
  @RequireRole('SUPPORT')
  list(@Query() query: PageQuery) {
    return this.prices.list(query);
  }

  @ApiRoute({
    summary: 'Get a price',
    description: 'The operator price of one trading pair.',
    data: 'Price',
    errors: [404],
  })
  @Get(':symbol')
  @RequireRole('SUPPORT')
  get(@Param('symbol', SymbolPipe) symbol: string) {
    return this.prices.get(symbol);
  }

  @ApiRoute({
    summary: "List a pair's price ticks",
    description:
      'The price history of one pair: every operator change and, from a market-data feed, at most one change ' +
      'per sampling interval; oldest first, quoted in [from, to) (default the last day); paginated by cursor. ' +
      'Kept PRICE_TICK_RETENTION_DAYS.',
    data: { page: 'PriceTick' },
  })
  @Get(':symbol/ticks')
  @RequireRole('SUPPORT')
  ticks(@Param('symbol', SymbolPipe) symbol: string, @Query() query: ListTicksQuery) {
    return this.prices.listTicks(symbol, query);
  }

  @ApiRoute({
    summary: 'Set a price',
    description:
      'Sets the price orders of the pair execute at, and records it as a price tick. Audited. A market-data ' +
      "feed that prices the pair replaces it at the feed's next change.",
    data: 'Price',
  })
  @Put(':symbol')
  @RequireRole('TRADING_OPS')
  set(
    @AdminActor() actor: AuditActor,
    @Param('symbol', SymbolPipe) symbol: string,
    @Body() body: SetPriceDto,
  ) {
    return this.prices.set(actor, symbol, body.price);
  }

  @ApiRoute({
    summary: 'Delete a price',
    description:
      'Removes the price; orders of the pair are refused (PRICE_UNAVAILABLE) until one is set. Audited.',
    data: 'Price',
    errors: [404],
  })
  @Delete(':symbol')
  @RequireRole('TRADING_OPS')
  remove(@AdminActor() actor: AuditActor, @Param('symbol', SymbolPipe) symbol: string) {
    return this.prices.remove(actor, symbol);
  }
}
