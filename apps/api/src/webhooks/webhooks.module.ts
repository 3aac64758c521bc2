import { Module } from '@nestjs/common';

import { AuditModule } from '../audit/audit.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { OrgsModule } from '../orgs/orgs.module.js';
import { DeliveriesService } from './deliveries.service.js';
import { RecoveriesService } from './recoveries.service.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhookSecretService } from './webhook-secret.service.js';
import { WebhookHealthRepository } from './webhook-health.repository.js';
import { WebhookHealthService } from './webhook-health.service.js';
import { WebhookTestService } from './webhook-test.service.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

@Module({
  imports: [OrgsModule, OutboxModule, MetricsModule, AuditModule],
  controllers: [WebhooksController],
  providers: [
    WebhooksRepository,
    WebhooksService,
    DeliveriesService,
    RecoveriesService,
    WebhookSecretService,
    WebhookTestService,
    WebhookHealthRepository,
    WebhookHealthService,
  ],
  exports: [
    WebhooksService,
    DeliveriesService,
    RecoveriesService,
    WebhookSecretService,
    WebhookTestService,
    WebhookHealthService,
  ],
})
export class WebhooksModule {}
