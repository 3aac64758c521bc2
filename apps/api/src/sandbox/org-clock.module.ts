// "Now" for an organisation and whether it is a sandbox one, for the features whose deadlines and magic
// values depend on them (KYC, orders). The sandbox's own routes are SandboxModule's.
import { Module } from '@nestjs/common';

import { OrgClockRepository } from './org-clock.repository.js';
import { OrgClock } from './org-clock.service.js';

@Module({
  providers: [OrgClockRepository, OrgClock],
  exports: [OrgClockRepository, OrgClock],
})
export class OrgClockModule {}
