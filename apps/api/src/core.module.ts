import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';

import { LOGGER } from './common/logger.js';
import { APP_CONFIG, type AppConfig } from './config/config.js';

/** The frozen configuration and the logger, available everywhere. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
      ],
      exports: [APP_CONFIG, LOGGER],
    };
  }
}
