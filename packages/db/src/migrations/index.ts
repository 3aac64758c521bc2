import type { MigrationInterface } from 'typeorm';

import { Init1795000000000 } from './1795000000000-Init.js';
import { Webhooks1795100000000 } from './1795100000000-Webhooks.js';
import { EventDataJson1795200000000 } from './1795200000000-EventDataJson.js';
import { Trading1795300000000 } from './1795300000000-Trading.js';
import { KycReviews1795400000000 } from './1795400000000-KycReviews.js';
import { EventLog1795500000000 } from './1795500000000-EventLog.js';

/** In order of application. */
export const MIGRATIONS: (new () => MigrationInterface)[] = [
  Init1795000000000,
  Webhooks1795100000000,
  EventDataJson1795200000000,
  Trading1795300000000,
  KycReviews1795400000000,
  EventLog1795500000000,
];
