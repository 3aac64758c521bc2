import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';

import { Caller, RequireScope } from '../auth/decorators.js';
import type { Principal } from '../auth/principal.js';
import { RegisterWebhookDto } from './dto/register-webhook.dto.js';
import { WebhooksService } from './webhooks.service.js';

@Controller('api/v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('BASE_MODULE:WRITE')
  register(@Caller() caller: Principal, @Body() body: RegisterWebhookDto) {
    return this.webhooks.register(caller.orgId, body);
  }

  @Get()
  @RequireScope('BASE_MODULE:READ')
  get(@Caller() caller: Principal) {
    return this.webhooks.get(caller.orgId);
  }

  @Delete()
  @RequireScope('BASE_MODULE:WRITE')
  remove(@Caller() caller: Principal) {
    return this.webhooks.remove(caller.orgId);
  }
}
