// Runs the KYC expiry sweep every KYC_EXPIRY_SWEEP_SECONDS in this instance (0: never, the default for
// tests, which call KycService.expireDue themselves). The sweep is a singleton across instances.
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';

import { LOGGER } from '../common/logger.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { KycService } from './kyc.service.js';

@Injectable()
export class KycExpiryScheduler implements OnModuleInit, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly kyc: KycService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    const seconds = this.config.kycExpirySweepSeconds;
    if (seconds <= 0) return;
    this.timer = setInterval(() => {
      this.sweep();
    }, seconds * 1000);
    this.timer.unref();
  }

  /** Stops the timer and waits for a sweep in flight, so shutdown never cuts one short. */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One sweep, unless the previous one is still running. */
  sweep(): void {
    if (this.running) return;
    this.running = this.kyc
      .expireDue()
      .then((expired) => {
        if (expired) this.logger.info({ expired }, 'KYC processes expired');
      })
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'KYC expiry sweep failed');
      })
      .finally(() => {
        this.running = undefined;
      });
  }
}
