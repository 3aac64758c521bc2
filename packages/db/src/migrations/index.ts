import type { MigrationInterface } from 'typeorm';

import { Init1795000000000 } from './1795000000000-Init.js';
import { Webhooks1795100000000 } from './1795100000000-Webhooks.js';
import { EventDataJson1795200000000 } from './1795200000000-EventDataJson.js';
import { Trading1795300000000 } from './1795300000000-Trading.js';
import { KycReviews1795400000000 } from './1795400000000-KycReviews.js';
import { EventLog1795500000000 } from './1795500000000-EventLog.js';
import { WebhookChanges1795600000000 } from './1795600000000-WebhookChanges.js';
import { Operators1795700000000 } from './1795700000000-Operators.js';
import { Dashboard1795800000000 } from './1795800000000-Dashboard.js';
import { DashboardVolumes1795900000000 } from './1795900000000-DashboardVolumes.js';
import { DashboardEvents1796000000000 } from './1796000000000-DashboardEvents.js';
import { ConsoleWebhookHealth1796200000000 } from './1796200000000-ConsoleWebhookHealth.js';
import { DeliveryQueue1796300000000 } from './1796300000000-DeliveryQueue.js';
import { AttemptCounters1796400000000 } from './1796400000000-AttemptCounters.js';
import { Redeliveries1796700000000 } from './1796700000000-Redeliveries.js';
import { DashboardSessionCreators1796810000000 } from './1796810000000-DashboardSessionCreators.js';
import { OrderLifecycle1797000000000 } from './1797000000000-OrderLifecycle.js';
import { PriceTicks1797100000000 } from './1797100000000-PriceTicks.js';
import { IdempotencyKeys1797200000000 } from './1797200000000-IdempotencyKeys.js';
import { RetryNow1797300000000 } from './1797300000000-RetryNow.js';
import { ActivityAndSearch1797400000000 } from './1797400000000-ActivityAndSearch.js';
import { AuditLogActorIndex1797600000000 } from './1797600000000-AuditLogActorIndex.js';
import { Sandbox1797700000000 } from './1797700000000-Sandbox.js';

/** In order of application. */
export const MIGRATIONS: (new () => MigrationInterface)[] = [
  Init1795000000000,
  Webhooks1795100000000,
  EventDataJson1795200000000,
  Trading1795300000000,
  KycReviews1795400000000,
  EventLog1795500000000,
  WebhookChanges1795600000000,
  Operators1795700000000,
  Dashboard1795800000000,
  DashboardVolumes1795900000000,
  DashboardEvents1796000000000,
  ConsoleWebhookHealth1796200000000,
  DeliveryQueue1796300000000,
  AttemptCounters1796400000000,
  Redeliveries1796700000000,
  DashboardSessionCreators1796810000000,
  OrderLifecycle1797000000000,
  PriceTicks1797100000000,
  IdempotencyKeys1797200000000,
  RetryNow1797300000000,
  ActivityAndSearch1797400000000,
  AuditLogActorIndex1797600000000,
  Sandbox1797700000000,
];
