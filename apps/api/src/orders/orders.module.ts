import { type DynamicModule, Module } from '@nestjs/common';

import { OutboxModule } from '../outbox/outbox.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { OrgClockModule } from '../sandbox/org-clock.module.js';
import { OrderDecisions } from './order-decisions.service.js';
import { OrderSweepModule } from './order-sweep.module.js';
import { OrderChangesService } from './order-changes.service.js';
import { OrdersController, PositionsController, UserOrdersController } from './orders.controller.js';
import { OrdersRepository } from './orders.repository.js';
import { OrdersService } from './orders.service.js';
import { OperatorPriceVenue, VENUE, type Venue } from './venue.js';

@Module({})
export class OrdersModule {
  /** `venue` executes the orders; the default fills at operator-set prices. */
  static forRoot(venue: Venue = new OperatorPriceVenue()): DynamicModule {
    return {
      module: OrdersModule,
      imports: [OutboxModule, MetricsModule, OrgClockModule, OrderSweepModule],
      controllers: [OrdersController, PositionsController, UserOrdersController],
      providers: [
        OrdersRepository,
        OrdersService,
        OrderDecisions,
        OrderChangesService,
        { provide: VENUE, useValue: venue },
      ],
      exports: [OrdersService],
    };
  }
}
