import { Module } from '@nestjs/common';

import { OrderSweepModule } from '../orders/order-sweep.module.js';
import { PricesModule } from '../prices/prices.module.js';
import { MARKET_DATA_SINK } from './market-data.js';
import { MarketDataService } from './market-data.service.js';
import { PricesSink } from './prices-sink.js';

/**
 * The market-data feed (docs/configuration.md#market-data): off unless MARKET_DATA_FEED names one. Its
 * updates go to MARKET_DATA_SINK: PricesSink, which writes prices, ticks and levels, and sweeps the pair.
 */
@Module({
  imports: [PricesModule, OrderSweepModule],
  providers: [PricesSink, { provide: MARKET_DATA_SINK, useExisting: PricesSink }, MarketDataService],
})
export class MarketDataModule {}
