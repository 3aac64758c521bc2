// Organisations: their own view, and the operator surface's create, read, list and update.
import { Module } from '@nestjs/common';

import { AuditModule } from '../audit/audit.module.js';
import { AdminOrgsController } from './admin-orgs.controller.js';
import { OrgController } from './org.controller.js';
import { OrgsRepository } from './orgs.repository.js';
import { OrgsService } from './orgs.service.js';

@Module({
  imports: [AuditModule],
  controllers: [OrgController, AdminOrgsController],
  providers: [OrgsRepository, OrgsService],
  exports: [OrgsService],
})
export class OrgsModule {}
