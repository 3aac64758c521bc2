// The event log (docs/dashboard.md#events): the organisation's events with the api's filters, newest first;
// one event with its body and every delivery attempt as the receiver got it; redelivery of the event (Retry
// now while it is retrying) and recovery of failed events since a time, through the api's own services.
import { Body, Controller, Get, Inject, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';

import { DashboardRead, DashboardWrite } from '../../auth/decorators.js';
import { AppError } from '../../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { EventLogService } from '../../event-log/event-log.service.js';
import { DeliveriesService } from '../../webhooks/deliveries.service.js';
import { RecoveriesService } from '../../webhooks/recoveries.service.js';
import { WebhookSecretService } from '../../webhooks/webhook-secret.service.js';
import { WebhooksService } from '../../webhooks/webhooks.service.js';
import { page, redirectTo } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { Dashboard, type DashboardContext } from '../dashboard-context.js';
import { DashboardEventQuery } from '../dto/dashboard-event.query.js';
import { DashboardEventsQuery } from '../dto/dashboard-events.query.js';
import { attemptRequest, type SigningEndpoint } from '../event-requests.js';
import { EventPage } from '../views/event.js';
import { EventsPage } from '../views/events.js';
import { RecoveryPage } from '../views/recovery.js';

type Form = Record<string, unknown> | undefined;

const uuid = new ParseUUIDPipe();

/** 400 (the form's fault) and 409 (not now) are shown on the page the form was on. */
const shownOnPage = (error: unknown): error is AppError =>
  error instanceof AppError && (error.status === 400 || error.status === 409);

@WebPages()
@DashboardRead('EVENTS')
@Controller('dashboard/events')
export class EventsPageController {
  constructor(
    private readonly log: EventLogService,
    private readonly deliveries: DeliveriesService,
    private readonly recoveries: RecoveriesService,
    private readonly webhooks: WebhooksService,
    private readonly secrets: WebhookSecretService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Dashboard() ctx: DashboardContext, @Query() query: DashboardEventsQuery) {
    return this.renderList(ctx, query);
  }

  @Post('recover')
  @DashboardWrite('MANAGE_WEBHOOKS')
  async recover(@Dashboard() ctx: DashboardContext, @Body() body: Form) {
    const since = typeof body?.since === 'string' ? body.since.trim() : '';
    try {
      const recovery = await this.recoveries.start(ctx.session.orgId, { since });
      return redirectTo(`/dashboard/events/recoveries/${recovery.id}`);
    } catch (error) {
      if (!shownOnPage(error)) throw error;
      return this.renderList(ctx, {}, { error: error.message, since }, error.status);
    }
  }

  @Get('recoveries/:id')
  async recovery(@Dashboard() ctx: DashboardContext, @Param('id', uuid) id: string) {
    return page(<RecoveryPage ctx={ctx} recovery={await this.recoveries.get(ctx.session.orgId, id)} />);
  }

  @Get(':id')
  async show(
    @Dashboard() ctx: DashboardContext,
    @Param('id', uuid) id: string,
    @Query() query: DashboardEventQuery,
  ) {
    const done = query.retried ? 'retried' : query.redelivered ? 'redelivered' : undefined;
    return this.renderEvent(ctx, id, query.cursor, done ? { done } : {});
  }

  @Post(':id/redeliver')
  @DashboardWrite('MANAGE_WEBHOOKS')
  async redeliver(@Dashboard() ctx: DashboardContext, @Param('id', uuid) id: string) {
    try {
      await this.deliveries.redeliver(ctx.session.orgId, id);
      return redirectTo(`/dashboard/events/${id}?redelivered=1`);
    } catch (error) {
      if (!shownOnPage(error)) throw error;
      return this.renderEvent(ctx, id, undefined, { error: error.message }, error.status);
    }
  }

  /** A retrying event's scheduled retry made at once; refused once the event is no longer retrying. */
  @Post(':id/retry-now')
  @DashboardWrite('MANAGE_WEBHOOKS')
  async retryNow(@Dashboard() ctx: DashboardContext, @Param('id', uuid) id: string) {
    try {
      await this.deliveries.redeliver(ctx.session.orgId, id, { retryingOnly: true });
      return redirectTo(`/dashboard/events/${id}?retried=1`);
    } catch (error) {
      if (!shownOnPage(error)) throw error;
      return this.renderEvent(ctx, id, undefined, { error: error.message }, error.status);
    }
  }

  private async renderList(
    ctx: DashboardContext,
    query: DashboardEventsQuery,
    outcome: { error?: string; since?: string } = {},
    status = 200,
  ) {
    const orgId = ctx.session.orgId;
    const [found, latest] = await Promise.all([
      this.log.page(orgId, query, 'newest-first'),
      this.recoveries.latest(orgId),
    ]);
    return page(
      <EventsPage
        ctx={ctx}
        query={query}
        events={found.items}
        nextCursor={found.nextCursor}
        latestRecovery={latest}
        defaultSince={outcome.since ?? this.windowStart()}
        error={outcome.error}
      />,
      status,
    );
  }

  private async renderEvent(
    ctx: DashboardContext,
    id: string,
    cursor: string | undefined,
    outcome: { done?: 'redelivered' | 'retried'; error?: string },
    status = 200,
  ) {
    const orgId = ctx.session.orgId;
    const event = await this.log.find(orgId, id);
    const [attempts, endpoint] = await Promise.all([
      this.deliveries.attemptsOf(orgId, id, cursor),
      this.signingEndpoint(orgId),
    ]);
    return page(
      <EventPage
        ctx={ctx}
        event={event}
        attempts={attempts.items.map((attempt) => ({
          attempt,
          request: attemptRequest(event, attempt, endpoint),
        }))}
        nextCursor={attempts.nextCursor}
        cursor={cursor}
        windowEndsAt={new Date(event.createdAt.getTime() + this.config.webhooks.windowMs)}
        {...outcome}
      />,
      status,
    );
  }

  /** The secret attempts are signed with now, and since when (the endpoint's last registration). */
  private async signingEndpoint(orgId: number): Promise<SigningEndpoint | null> {
    const signing = await this.secrets.forSigning(orgId);
    if (!signing) return null;
    const webhook = await this.webhooks.get(orgId);
    return { secret: signing.secret, registeredAt: new Date(webhook.updatedAt) };
  }

  /** The earliest `since` a recovery takes: the start of the delivery window, to the second. */
  private windowStart(): string {
    const start = Math.ceil((Date.now() - this.config.webhooks.windowMs) / 1000) * 1000 + 60_000;
    return new Date(start).toISOString().replace('.000Z', 'Z');
  }
}
