import { Module } from '@nestjs/common';

import { DeliveriesService } from './deliveries.service.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

@Module({
  controllers: [WebhooksController],
  providers: [WebhooksService, DeliveriesService],
  exports: [WebhooksService],
})
export class WebhooksModule {}
