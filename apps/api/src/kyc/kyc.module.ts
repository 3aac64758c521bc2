import { Module } from '@nestjs/common';

import { UsersModule } from '../users/users.module.js';
import { KycExpiryScheduler } from './kyc-expiry.scheduler.js';
import { KycReviewController } from './kyc-review.controller.js';
import { KycController } from './kyc.controller.js';
import { KycService } from './kyc.service.js';

@Module({
  imports: [UsersModule],
  controllers: [KycController, KycReviewController],
  providers: [KycService, KycExpiryScheduler],
  exports: [KycService],
})
export class KycModule {}
