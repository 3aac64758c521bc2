// Deletes the used signatures whose replay window has passed, every minute in each instance (any may:
// the statement only deletes rows no request can match any more).
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { LOGGER } from '../common/logger.js';
import { PeriodicTask } from '../common/periodic-task.js';
import { CredentialsService } from './credentials.service.js';

const EVERY_MINUTE_MS = 60_000;

@Injectable()
export class UsedSignaturesSweeper extends PeriodicTask {
  constructor(credentials: CredentialsService, @Inject(LOGGER) logger: Logger) {
    const sweep = async () => {
      await credentials.sweepUsedSignatures();
    };
    super('sweeping used signatures', sweep, logger, EVERY_MINUTE_MS);
  }
}
