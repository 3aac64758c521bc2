// Deletes the throttles' counters whose window has passed, every minute in each instance, so that the
// table holds only live windows however many addresses guess. A counter past the longest window is one
// its next attempt would start afresh anyway, so deleting it changes no answer.
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { LOGGER } from '../common/logger.js';
import { PeriodicTask } from '../common/periodic-task.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { AttemptCountersRepository } from './attempt-counters.repository.js';

const MINUTE_MS = 60_000;

/** The longest window of any throttle: the sign-in window (the others count per minute). */
export function longestThrottleWindowMs(config: AppConfig): number {
  return Math.max(config.operators.signIn.windowMinutes * MINUTE_MS, MINUTE_MS);
}

@Injectable()
export class AttemptCountersSweeper extends PeriodicTask {
  constructor(
    counters: AttemptCountersRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    const sweep = () => counters.sweep(longestThrottleWindowMs(config));
    super('sweeping throttle counters', sweep, logger, MINUTE_MS);
  }
}
