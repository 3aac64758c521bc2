import { Controller, Get, Headers, Param, ParseUUIDPipe, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller, RequireScope } from '../auth/decorators.js';
import type { Principal } from '../auth/principal.js';
import { RawResponse, successEnvelopeText } from '../common/envelope.js';
import { ApiRoute, ApiStreamRoute } from '../openapi/route.decorators.js';
import { ListEventsQuery } from './dto/list-events.query.js';
import { StreamEventsQuery } from './dto/stream-events.query.js';
import { EventLogService } from './event-log.service.js';
import { EventStreamsService } from './stream/event-streams.service.js';

/** The log and the stream answer text they write themselves: the bodies exactly as stored (event.view.ts). */
const JSON_TYPE = 'application/json; charset=utf-8';

@ApiTags('Events')
@Controller('events')
export class EventsController {
  constructor(
    private readonly log: EventLogService,
    private readonly streams: EventStreamsService,
  ) {}

  @ApiRoute({
    summary: 'List events',
    description:
      "The organisation's events, oldest first, each with its id, its webhook delivery status and the body the webhook carries; filters by entity, KYC event type, delivery status and creation time; paginated by cursor. Kept for the configured retention (30 days by default).",
    data: { page: 'EventLogEntry' },
  })
  @Get()
  @RawResponse()
  @RequireScope('BASE_MODULE:READ')
  async list(
    @Caller() caller: Principal,
    @Query() query: ListEventsQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    void reply.header('content-type', JSON_TYPE);
    return successEnvelopeText(await this.log.list(caller.orgId, query));
  }

  @ApiStreamRoute({
    summary: 'Follow events (Server-Sent Events)',
    description:
      "Every new event of the organisation as it commits, as Server-Sent Events: `id:` the event's id, `data:` its body on one line, the same text the webhook carries; `: heartbeat` comment lines keep the connection open. Resume without gaps or repeats with the Last-Event-ID header (what EventSource sends when it reconnects), or start at a time with `since`. A few streams per organisation at once (429 beyond).",
    data: 'EventBody',
    errors: [429],
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description:
      'Resume after this event (the `id:` of the last message received); takes precedence over since',
    schema: { type: 'string', format: 'uuid' },
  })
  @Get('stream')
  @RawResponse()
  @RequireScope('BASE_MODULE:READ')
  async stream(
    @Caller() caller: Principal,
    @Query() query: StreamEventsQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.streams.open(caller, { lastEventId, since: query.since }, request, reply);
  }

  @ApiRoute({
    summary: 'Get an event',
    description:
      'One event of the organisation: its id, its webhook delivery status and the body the webhook carries.',
    data: 'EventLogEntry',
    errors: [404],
  })
  @Get(':id')
  @RawResponse()
  @RequireScope('BASE_MODULE:READ')
  async get(
    @Caller() caller: Principal,
    @Param('id', new ParseUUIDPipe()) id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    void reply.header('content-type', JSON_TYPE);
    return successEnvelopeText(await this.log.get(caller.orgId, id));
  }
}
