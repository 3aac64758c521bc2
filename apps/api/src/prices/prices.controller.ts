import { Body, Controller, Delete, Get, Param, Put, Query } from '@nestjs/common';

import { type AuditActor, AdminActor } from '../audit/admin-actor.decorator.js';
import { SymbolPipe } from '../common/params.js';
import { RequireRole } from '../auth/decorators.js';
import { PageQuery } from '../common/pagination.js';
import { ListTicksQuery } from './dto/list-ticks.query.js';
import { OrderSweeperService } from '../orders/order-sweeper.service.js';
import { SetLevelsDto } from './dto/set-levels.dto.js';
import { SetPriceDto } from './dto/set-price.dto.js';
import { PricesService } from './prices.service.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

@ApiTags('Operator: Trading')
@Controller('admin/prices')
export class PricesController {
  constructor(
    private readonly prices: PricesService,
    private readonly sweeper: OrderSweeperService,
  ) {}

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
      "Sets the pair's last price and records it as a price tick: MARKET orders of a pair without levels execute at it, and stops trigger on it. The pair's resting orders that now cross are swept before the answer. Audited. A market-data feed that prices the pair replaces it at the feed's next change.",
    data: 'Price',
  })
  @Put(':symbol')
  @RequireRole('TRADING_OPS')
  async set(
    @AdminActor() actor: AuditActor,
    @Param('symbol', SymbolPipe) symbol: string,
    @Body() body: SetPriceDto,
  ) {
    const price = await this.prices.set(actor, symbol, body.price);
    await this.sweeper.afterMarketChange(symbol);
    return price;
  }

  @ApiRoute({
    summary: "Get a pair's price levels",
    description: "The pair's book: asks lowest first, bids highest first, each with the size left.",
    data: 'PriceLevels',
  })
  @Get(':symbol/levels')
  @RequireRole('SUPPORT')
  levels(@Param('symbol', SymbolPipe) symbol: string) {
    return this.prices.levels(symbol);
  }

  @ApiRoute({
    summary: "Set a pair's price levels",
    description:
      "Replaces the pair's book: BUY orders fill against the asks, SELL orders against the bids, each fill taking from the level's size. Empty asks and bids make the operator price the book again, without a size limit. The pair needs a price first (404 otherwise); the lowest ask must be above the highest bid. The pair's resting orders that now cross are swept before the answer. Audited.",
    data: 'PriceLevels',
    errors: [404],
  })
  @Put(':symbol/levels')
  @RequireRole('TRADING_OPS')
  async setLevels(
    @AdminActor() actor: AuditActor,
    @Param('symbol', SymbolPipe) symbol: string,
    @Body() body: SetLevelsDto,
  ) {
    const levels = await this.prices.setLevels(actor, symbol, body);
    await this.sweeper.afterMarketChange(symbol);
    return this.prices.levels(levels.symbol);
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
