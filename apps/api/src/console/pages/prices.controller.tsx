// Prices (/console/prices): the operator prices orders execute at, listed by symbol, and set through the
// admin api's PricesService (same roles: SUPPORT reads, TRADING_OPS sets; audited as the operator).
import { Body, Controller, Get, Post, Query } from '@nestjs/common';

import { auditActor } from '../../audit/admin-actor.decorator.js';
import { RequireRole } from '../../auth/decorators.js';
import { SymbolPipe } from '../../common/params.js';
import { SetPriceDto } from '../../prices/dto/set-price.dto.js';
import { PricesService } from '../../prices/prices.service.js';
import { page, redirectTo } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { type ConsoleContext, OperatorConsole } from '../../operators/console-context.js';
import { ConsolePageQuery } from '../dto/console-queries.js';
import { type FormBody, formInput, formNumber, formText } from '../../web/forms.js';
import { PricesPage } from '../views/prices.js';

@WebPages()
@Controller('console/prices')
export class ConsolePricesController {
  constructor(private readonly prices: PricesService) {}

  @Get()
  @RequireRole('SUPPORT')
  async list(@OperatorConsole() ctx: ConsoleContext, @Query() query: ConsolePageQuery) {
    const { done, ...paging } = query;
    const found = await this.prices.list(paging);
    return page(<PricesPage ctx={ctx} prices={found} cursor={query.cursor} done={done} />);
  }

  @Post()
  @RequireRole('TRADING_OPS')
  async set(@OperatorConsole() ctx: ConsoleContext, @Body() body: FormBody) {
    const symbol = new SymbolPipe().transform(formText(body, 'symbol')?.toUpperCase() ?? '');
    const { price } = await formInput(SetPriceDto, { price: formNumber(body, 'price') });
    const saved = await this.prices.set(auditActor(ctx.operator), symbol, price);
    return redirectTo(`/console/prices?done=set#price-${saved.symbol}`);
  }
}
