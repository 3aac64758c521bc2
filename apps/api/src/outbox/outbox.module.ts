import { Module } from '@nestjs/common';

import { OutboxRepository } from './outbox.repository.js';
import { OutboxService } from './outbox.service.js';

@Module({ providers: [OutboxRepository, OutboxService], exports: [OutboxService, OutboxRepository] })
export class OutboxModule {}
