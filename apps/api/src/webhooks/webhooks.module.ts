import { Module } from '@nestjs/common';

import { EventsModule } from '../events/events.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { OrgsModule } from '../orgs/orgs.module.js';
import { DeliveriesService } from './deliveries.service.js';
import { RecoveriesService } from './recoveries.service.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

@Module({
  imports: [OrgsModule, EventsModule, MetricsModule],
  controllers: [WebhooksController],
  providers: [WebhooksRepository, WebhooksService, DeliveriesService, RecoveriesService],
})
export class WebhooksModule {}
