import { Module } from '@nestjs/common';

import { AuditModule } from '../audit/audit.module.js';
import { OrderSweepModule } from '../orders/order-sweep.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { NoticesController } from './notices.controller.js';
import { NoticesRepository } from './notices.repository.js';
import { NoticesService } from './notices.service.js';

@Module({
  imports: [AuditModule, OutboxModule, OrderSweepModule],
  controllers: [NoticesController],
  providers: [NoticesRepository, NoticesService],
  exports: [NoticesService],
})
export class NoticesModule {}
