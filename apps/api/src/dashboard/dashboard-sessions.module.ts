// Dashboard sessions on their own: what the dashboard's pages and the authentication service that lets their
// sessions in (auth/authentication.service.ts) both need.
import { Module } from '@nestjs/common';

import { OrgsModule } from '../orgs/orgs.module.js';
import { DashboardSessionsRepository } from './dashboard-sessions.repository.js';
import { DashboardSessionsService } from './dashboard-sessions.service.js';

@Module({
  imports: [OrgsModule],
  providers: [DashboardSessionsRepository, DashboardSessionsService],
  exports: [DashboardSessionsService],
})
export class DashboardSessionsModule {}
