import { Body, Controller, Delete, Get, Param, Put, Query } from '@nestjs/common';

import { AdminActor } from '../audit/admin-actor.decorator.js';
import { SymbolPipe } from '../common/params.js';
import { AdminOnly } from '../auth/decorators.js';
import { PageQuery } from '../common/pagination.js';
import { SetPriceDto } from './dto/set-price.dto.js';
import { PricesService } from './prices.service.js';

@Controller('admin/prices')
export class PricesController {
  constructor(private readonly prices: PricesService) {}

  @Get()
  @AdminOnly()
  list(@Query() query: PageQuery) {
    return this.prices.list(query);
  }

  @Get(':symbol')
  @AdminOnly()
  get(@Param('symbol', SymbolPipe) symbol: string) {
    return this.prices.get(symbol);
  }

  @Put(':symbol')
  @AdminOnly()
  set(@AdminActor() actor: string, @Param('symbol', SymbolPipe) symbol: string, @Body() body: SetPriceDto) {
    return this.prices.set(actor, symbol, body.price);
  }

  @Delete(':symbol')
  @AdminOnly()
  remove(@AdminActor() actor: string, @Param('symbol', SymbolPipe) symbol: string) {
    return this.prices.remove(actor, symbol);
  }
}
