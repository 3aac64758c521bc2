import { type DynamicModule, Module } from '@nestjs/common';

import { OrdersController, PositionsController } from './orders.controller.js';
import { OrdersService } from './orders.service.js';
import { OperatorPriceVenue, VENUE, type Venue } from './venue.js';

@Module({})
export class OrdersModule {
  /** `venue` executes the orders; the default fills at operator-set prices. */
  static forRoot(venue: Venue = new OperatorPriceVenue()): DynamicModule {
    return {
      module: OrdersModule,
      controllers: [OrdersController, PositionsController],
      providers: [OrdersService, { provide: VENUE, useValue: venue }],
      exports: [OrdersService],
    };
  }
}
