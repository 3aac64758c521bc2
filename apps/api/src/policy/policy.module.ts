import { Module } from '@nestjs/common';

import { AuditModule } from '../audit/audit.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { OrgsModule } from '../orgs/orgs.module.js';
import { PolicyController } from './policy.controller.js';
import { PolicyService } from './policy.service.js';

@Module({
  imports: [OrgsModule, AuditModule, OutboxModule],
  controllers: [PolicyController],
  providers: [PolicyService],
  exports: [PolicyService],
})
export class PolicyModule {}
