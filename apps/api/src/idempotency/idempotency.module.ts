// Idempotency-Key: its rules, table and service. Its guard is provided by AuthModule, after the one guard
// it follows; its answer hook is added by app.ts.
import { Module } from '@nestjs/common';

import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';

@Module({
  providers: [IdempotencyRepository, IdempotencyService],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
