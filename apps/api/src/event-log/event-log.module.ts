// The organisation's event log and event stream (docs/api-guide.md#event-log-and-stream). The outbox that
// writes events is OutboxModule, which every feature that emits events imports.
import { Module } from '@nestjs/common';

import { CredentialsModule } from '../credentials/credentials.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { EventLogRepository } from './event-log.repository.js';
import { EventLogService } from './event-log.service.js';
import { EventsController } from './events.controller.js';
import { EventStreamsService } from './stream/event-streams.service.js';

@Module({
  imports: [CredentialsModule, MetricsModule],
  controllers: [EventsController],
  providers: [EventLogRepository, EventLogService, EventStreamsService],
  // The dashboard's events pages read the log through the same service.
  exports: [EventLogService],
})
export class EventLogModule {}
