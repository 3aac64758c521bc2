// Runs the KYC expiry sweep every KYC_EXPIRY_SWEEP_SECONDS in this instance (0: never, the default for
// tests, which call KycService.expireDue themselves). The sweep is a singleton across instances.
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { LOGGER } from '../common/logger.js';
import { PeriodicTask } from '../common/periodic-task.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { KycService } from './kyc.service.js';

@Injectable()
export class KycExpiryScheduler extends PeriodicTask {
  constructor(kyc: KycService, @Inject(APP_CONFIG) config: AppConfig, @Inject(LOGGER) logger: Logger) {
    const expire = async () => {
      const expired = await kyc.expireDue();
      if (expired) logger.info({ expired }, 'KYC processes expired');
    };
    super('KYC expiry sweep', expire, logger, config.kycExpirySweepSeconds * 1000);
  }
}
