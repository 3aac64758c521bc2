import { Module } from '@nestjs/common';

import { AuditModule } from '../audit/audit.module.js';
import { OrderSweepModule } from '../orders/order-sweep.module.js';
import { PricesController } from './prices.controller.js';
import { PricesRepository } from './prices.repository.js';
import { PricesService } from './prices.service.js';

@Module({
  imports: [AuditModule, OrderSweepModule],
  controllers: [PricesController],
  providers: [PricesRepository, PricesService],
  exports: [PricesService],
})
export class PricesModule {}
