import { Module } from '@nestjs/common';

import { AuditModule } from '../audit/audit.module.js';
import { EventsModule } from '../events/events.module.js';
import { NoticesController } from './notices.controller.js';
import { NoticesRepository } from './notices.repository.js';
import { NoticesService } from './notices.service.js';

@Module({
  imports: [AuditModule, EventsModule],
  controllers: [NoticesController],
  providers: [NoticesRepository, NoticesService],
  exports: [NoticesService],
})
export class NoticesModule {}
