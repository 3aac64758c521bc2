// A sandbox organisation's routes: the test clock and triggered events (docs/testing.md).
import { Module } from '@nestjs/common';

import { KycModule } from '../kyc/kyc.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { UsersModule } from '../users/users.module.js';
import { OrgClockModule } from './org-clock.module.js';
import { SandboxController } from './sandbox.controller.js';
import { SandboxService } from './sandbox.service.js';

@Module({
  imports: [OrgClockModule, UsersModule, OutboxModule, KycModule],
  controllers: [SandboxController],
  providers: [SandboxService],
})
export class SandboxModule {}
