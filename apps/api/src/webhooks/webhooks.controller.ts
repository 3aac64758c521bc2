import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';

import { Caller, RequireScope } from '../auth/decorators.js';
import type { Principal } from '../auth/principal.js';
import { badRequest } from '../common/errors.js';
import { DeliveriesService } from './deliveries.service.js';
import { ListDeliveriesQuery } from './dto/list-deliveries.query.js';
import { RecoverDto } from './dto/recover.dto.js';
import { RecoveriesService } from './recoveries.service.js';
import { RegisterWebhookDto } from './dto/register-webhook.dto.js';
import { WebhooksService } from './webhooks.service.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

@ApiTags('Webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly deliveries: DeliveriesService,
    private readonly recoveries: RecoveriesService,
  ) {}

  @ApiRoute({
    summary: 'Register the webhook',
    description:
      "Registers the organisation's one webhook endpoint, or changes its url or secret. The url must be https on the organisation's kycDomain or a subdomain of it; the api sends the new endpoint a challenge signed with the new secret at once. Only a passed challenge replaces an ACTIVE endpoint: when it fails, the ACTIVE endpoint is kept unchanged and the answer is 409 with the reason. Without an ACTIVE endpoint, a failed challenge is stored as CHALLENGE_FAILED and the answer (200) says why. ENTERPRISE plan only.",
    data: 'Webhook',
    errors: [403, 409],
  })
  @Post()
  @HttpCode(200)
  @RequireScope('BASE_MODULE:WRITE')
  register(@Caller() caller: Principal, @Body() body: RegisterWebhookDto) {
    return this.webhooks.register(caller.orgId, body);
  }

  @ApiRoute({
    summary: 'Get the webhook',
    description: "The organisation's webhook endpoint and whether its challenge passed; never its secret.",
    data: 'Webhook',
    errors: [404],
  })
  @Get()
  @RequireScope('BASE_MODULE:READ')
  get(@Caller() caller: Principal) {
    return this.webhooks.get(caller.orgId);
  }

  @ApiRoute({
    summary: 'Remove the webhook',
    description: 'Removes the endpoint; no event is sent until another is registered.',
    data: 'DeletedWebhook',
    errors: [404],
  })
  @Delete()
  @RequireScope('BASE_MODULE:WRITE')
  remove(@Caller() caller: Principal) {
    return this.webhooks.remove(caller.orgId);
  }

  @ApiRoute({
    summary: 'List delivery attempts',
    description:
      'Every attempt to deliver an event to the webhook, oldest first, optionally for one event or one outcome; paginated by cursor.',
    data: { page: 'WebhookDelivery' },
  })
  @Get('deliveries')
  @RequireScope('BASE_MODULE:READ')
  listDeliveries(@Caller() caller: Principal, @Query() query: ListDeliveriesQuery) {
    return this.deliveries.list(caller.orgId, query);
  }

  @ApiRoute({
    summary: 'Redeliver an event, or retry it now',
    description:
      "Queues one more delivery of an event to the active webhook, within 24 hours of the event, sent with numRetries one more than its last attempt's. For a DELIVERED, FAILED or SKIPPED event it is a redelivery: one attempt, not retried. For a RETRYING event (an attempt failed, the next is scheduled) it is Retry now: the scheduled retry is made at once instead of at its time, logged as manual, and if it fails the retries go on from it as from any failed retry; the event never gets both. Refused (409) while the event's first attempt is still to be made.",
    data: 'Redelivery',
    errors: [404, 409],
  })
  @Post('events/:eventId/redeliver')
  @HttpCode(200)
  @RequireScope('BASE_MODULE:WRITE')
  redeliver(@Caller() caller: Principal, @Param('eventId', new ParseUUIDPipe()) eventId: string) {
    return this.deliveries.redeliver(caller.orgId, eventId);
  }

  @ApiRoute({
    summary: 'Recover failed events',
    description:
      'Redelivers every FAILED event of the organisation created since `since` and still inside its 24-hour delivery window, once each, in the background: the answer is the recovery, PENDING until the worker has chosen the events; follow it with GET /api/v1/webhooks/recover/{id}/. Each event gets one attempt (counted in its numRetries) to the ACTIVE webhook. One recovery at a time per organisation.',
    data: 'WebhookRecovery',
    errors: [409],
  })
  @Post('recover')
  @HttpCode(200)
  @RequireScope('BASE_MODULE:WRITE')
  recover(@Caller() caller: Principal, @Body() body: RecoverDto) {
    return this.recoveries.start(caller.orgId, body);
  }

  @ApiRoute({
    summary: 'Get a recovery',
    description:
      'How far a recovery got: how many events it chose (total), how many wait for their attempt (queued), and how many were delivered or failed; COMPLETED once each had its attempt.',
    data: 'WebhookRecovery',
    errors: [404],
  })
  @Get('recover/:id')
  @RequireScope('BASE_MODULE:READ')
  getRecovery(
    @Caller() caller: Principal,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => badRequest('id must be a UUID') })) id: string,
  ) {
    return this.recoveries.get(caller.orgId, id);
  }
}
