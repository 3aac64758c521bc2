import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';

import { Caller, RequireScope } from '../auth/decorators.js';
import type { Principal } from '../auth/principal.js';
import { DeliveriesService } from './deliveries.service.js';
import { ListDeliveriesQuery } from './dto/list-deliveries.query.js';
import { RegisterWebhookDto } from './dto/register-webhook.dto.js';
import { WebhooksService } from './webhooks.service.js';

@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly deliveries: DeliveriesService,
  ) {}

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

  @Get('deliveries')
  @RequireScope('BASE_MODULE:READ')
  listDeliveries(@Caller() caller: Principal, @Query() query: ListDeliveriesQuery) {
    return this.deliveries.list(caller.orgId, query);
  }

  @Post('events/:eventId/redeliver')
  @HttpCode(200)
  @RequireScope('BASE_MODULE:WRITE')
  redeliver(@Caller() caller: Principal, @Param('eventId', new ParseUUIDPipe()) eventId: string) {
    return this.deliveries.redeliver(caller.orgId, eventId);
  }
}
