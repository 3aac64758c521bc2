import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { Caller, RequireScope } from '../auth/decorators.js';
import type { Principal } from '../auth/principal.js';
import { ApiRoute } from '../openapi/route.decorators.js';
import { AdvanceClockDto } from './dto/advance-clock.dto.js';
import { TriggerEventDto } from './dto/trigger-event.dto.js';
import { SandboxService } from './sandbox.service.js';

/** A sandbox organisation's test clock and triggered events (docs/testing.md); 404 for a live one. */
@ApiTags('Sandbox')
@Controller('sandbox')
export class SandboxController {
  constructor(private readonly sandbox: SandboxService) {}

  @ApiRoute({
    summary: 'Read the test clock',
    description:
      "The sandbox organisation's time: real time plus how far its clock was moved. 404 for a live organisation.",
    data: 'SandboxClock',
    errors: [404],
  })
  @Get('clock')
  @RequireScope('BASE_MODULE:READ')
  clock(@Caller() caller: Principal) {
    return this.sandbox.clock(caller.orgId);
  }

  @ApiRoute({
    summary: 'Move the test clock forward',
    description:
      "Moves the sandbox organisation's time forward by `advanceBy` seconds or to `to`, never back. Deadlines follow it (KYC expiry), and what falls due expires at once; event timestamps, webhook retries and signatures keep real time. 404 for a live organisation.",
    data: 'SandboxClock',
    errors: [404],
  })
  @Post('clock')
  @HttpCode(200)
  @RequireScope('BASE_MODULE:WRITE')
  advance(@Caller() caller: Principal, @Body() body: AdvanceClockDto) {
    return this.sandbox.advance(caller.orgId, body);
  }

  @ApiRoute({
    summary: 'Trigger an event',
    description:
      'Records a real event of the kind asked for in the sandbox organisation: stored, in the event log and the stream, and delivered to the webhook with retries. Users and Orders events are about the user named, or a new sandbox user created for it. 404 for a live organisation, or a user named who does not exist.',
    data: 'TriggeredEvent',
    errors: [404],
  })
  @Post('events')
  @HttpCode(200)
  @RequireScope('BASE_MODULE:WRITE')
  trigger(@Caller() caller: Principal, @Body() body: TriggerEventDto) {
    return this.sandbox.trigger(caller.orgId, body);
  }
}
