import { Module } from '@nestjs/common';

import { AuditModule } from '../audit/audit.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { OrgClockModule } from '../sandbox/org-clock.module.js';
import { UsersModule } from '../users/users.module.js';
import { KycExpiryScheduler } from './kyc-expiry.scheduler.js';
import { KycRepository } from './kyc.repository.js';
import { KycReviewController } from './kyc-review.controller.js';
import { KycController } from './kyc.controller.js';
import { KycService } from './kyc.service.js';

@Module({
  imports: [UsersModule, OutboxModule, AuditModule, MetricsModule, OrgClockModule],
  controllers: [KycController, KycReviewController],
  providers: [KycRepository, KycService, KycExpiryScheduler],
  exports: [KycService],
})
export class KycModule {}
