import { Module } from '@nestjs/common';

import { OutboxModule } from '../outbox/outbox.module.js';
import { ExecutionRepository } from './execution.repository.js';
import { OrderSweepRepository } from './order-sweep.repository.js';
import { OrderSweeperService } from './order-sweeper.service.js';

/**
 * The sweep of resting orders and what a fill writes: one instance per api process, used by orders, and by
 * prices and notices after a pair's market changes.
 */
@Module({
  imports: [OutboxModule],
  providers: [ExecutionRepository, OrderSweepRepository, OrderSweeperService],
  exports: [ExecutionRepository, OrderSweepRepository, OrderSweeperService],
})
export class OrderSweepModule {}
