// The event streams this api process serves (docs/api-guide.md#event-log-and-stream, docs/decisions.md,
// "Events: serving the stream"): one LISTEN connection for the process, one feed per organisation with a
// stream open here, heartbeats, the per-organisation cap (leases in PostgreSQL, so it holds over every
// instance), streams ended when their credentials are revoked or expire, and all of them ended cleanly when
// the process shuts down.
import { randomUUID } from 'node:crypto';

import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { EVENTS_CHANNEL } from '@svc/db';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';

import type { Principal } from '../../auth/principal.js';
import { AppError, badRequest, unavailable } from '../../common/errors.js';
import { LOGGER } from '../../common/logger.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { CredentialsService } from '../../credentials/credentials.service.js';
import { BOSS } from '../../database/database.module.js';
import { MetricsService } from '../../metrics/metrics.service.js';
import { parseInstant } from '../../common/instant.js';
import { EventLogRepository, type EventLogRow } from '../event-log.repository.js';
import { streamFrame } from '../event.view.js';
import { FEED_DEFAULTS, OrgFeed, type StreamStart, type Subscription } from './event-feed.js';
import { SseResponse } from './sse-response.js';

/** A lease lapses this long after its last renewal: what an instance that died leaves behind. */
export const LEASE_TTL_MS = 60_000;
const LEASE_RENEW_MS = 20_000;
/** How often open streams' credentials are checked: a revocation ends them within about a second. */
const CREDENTIAL_CHECK_MS = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Each row's frame, written once however many streams of its organisation this process holds. */
const frames = new WeakMap<EventLogRow, string>();
function frameOf(row: EventLogRow): string {
  let frame = frames.get(row);
  if (frame === undefined) {
    frame = streamFrame(row);
    frames.set(row, frame);
  }
  return frame;
}

interface OpenStream {
  readonly caller: Principal;
  readonly leaseId: string;
  readonly sse: SseResponse;
  subscription?: Subscription;
}

@Injectable()
export class EventStreamsService implements BeforeApplicationShutdown {
  private readonly feeds = new Map<number, OrgFeed>();
  private readonly streams = new Set<OpenStream>();
  private listening: Promise<void> | undefined;
  private listener: { close(): Promise<void> } | undefined;
  private timers: NodeJS.Timeout[] = [];
  private closing = false;

  constructor(
    private readonly events: EventLogRepository,
    private readonly credentials: CredentialsService,
    @Inject(BOSS) private readonly boss: PgBoss,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: MetricsService,
  ) {}

  /**
   * Answers the request with the organisation's event stream, from `Last-Event-ID` (precedence: it is what a
   * reconnecting client sends), else `since`, else now. Refusals (bad input, the cap, shutting down) are
   * thrown before anything is written, so they go out as the usual error envelope.
   */
  async open(
    caller: Principal,
    from: { lastEventId: string | undefined; since: string | undefined },
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    if (this.closing) throw unavailable('the server is shutting down: reconnect to go on');
    const start = await this.startOf(caller.orgId, from);
    if (request.method === 'HEAD') {
      reply.hijack();
      new SseResponse(reply.raw).start(reply.getHeaders());
      reply.raw.end();
      return;
    }
    await this.listen();
    const leaseId = randomUUID();
    const { perOrg } = this.config.eventStreams;
    if (!(await this.events.acquireLease(caller.orgId, leaseId, perOrg, LEASE_TTL_MS))) {
      throw new AppError(
        'rate_limited',
        `the organisation already has ${perOrg} event streams open (EVENT_STREAMS_PER_ORG): close one, or retry later`,
        { 'retry-after': '5' },
      );
    }
    reply.hijack();
    const sse = new SseResponse(reply.raw);
    const stream: OpenStream = { caller, leaseId, sse };
    this.streams.add(stream);
    this.metrics.streamOpened(request);
    sse.onClose(() => this.forget(stream));
    sse.start(reply.getHeaders());
    // The client may have gone while the lease was taken: its 'close' came before anyone listened.
    if (reply.raw.destroyed) {
      this.forget(stream);
      return;
    }
    this.startTimers();
    const feed = this.feedOf(caller.orgId);
    const sink = {
      get open() {
        return sse.open;
      },
      send: (row: EventLogRow) => sse.write(frameOf(row)),
      drained: () => sse.drained(),
    };
    try {
      stream.subscription = await feed.subscribe(sink, start);
      // Closed while it caught up: forget() ran before the subscription existed.
      if (!sse.open) this.detach(caller.orgId, stream.subscription);
    } catch (error) {
      this.logger.warn({ err: error, orgId: caller.orgId }, 'event stream failed while catching up');
      sse.end('error: reconnect with Last-Event-ID');
    }
  }

  /** Ends every stream (each client reconnects elsewhere with Last-Event-ID) before the server closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    const leases = [...this.streams].map((stream) => stream.leaseId);
    for (const stream of this.streams) stream.sse.end('closing: reconnect with Last-Event-ID');
    this.streams.clear();
    for (const feed of this.feeds.values()) feed.close();
    this.feeds.clear();
    await this.listener?.close().catch(() => undefined);
    if (leases.length > 0) {
      await this.events
        .releaseLeases(leases)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'releasing event stream leases failed'));
    }
  }

  private async startOf(
    orgId: number,
    from: { lastEventId: string | undefined; since: string | undefined },
  ): Promise<StreamStart> {
    if (from.lastEventId !== undefined) {
      const id = from.lastEventId.trim();
      if (!UUID.test(id)) throw badRequest('Last-Event-ID must be the id (a UUID) of an event of the stream');
      const row = await this.events.find(orgId, id.toLowerCase());
      if (!row) {
        throw badRequest(
          `Last-Event-ID: no event ${id} in the organisation's log (it may be older than the retention): start again with since`,
        );
      }
      return { kind: 'after', key: row.key };
    }
    if (from.since !== undefined) {
      const since = parseInstant(from.since);
      if (since) return { kind: 'since', since };
    }
    // A new stream starts where the log's committed rows end now, read before the 200 is sent: a client
    // that writes as soon as it sees the 200 then finds its event on the stream. The feed's own cursor,
    // read only when the first stream of the organisation subscribes, could already be past it.
    return { kind: 'after', key: await this.events.frontier() };
  }

  /** The process's LISTEN connection (pg-boss's, which reconnects; every feed reads again after a reconnect). */
  private listen(): Promise<void> {
    this.listening ??= (async () => {
      const listen = this.boss.getDb().listen?.bind(this.boss.getDb());
      if (!listen) throw new Error('the queue database cannot LISTEN');
      this.listener = await listen(
        EVENTS_CHANNEL,
        (payload) => this.notified(payload),
        () => this.wakeAll(),
      );
    })().catch((error: unknown) => {
      this.listening = undefined;
      throw error;
    });
    return this.listening;
  }

  private notified(payload: string): void {
    if (payload === '*') this.wakeAll();
    else for (const id of payload.split(',')) this.feeds.get(Number(id))?.wake();
  }

  private wakeAll(): void {
    for (const feed of this.feeds.values()) feed.wake();
  }

  private feedOf(orgId: number): OrgFeed {
    let feed = this.feeds.get(orgId);
    if (!feed) {
      feed = new OrgFeed(orgId, this.events, {
        ...FEED_DEFAULTS,
        onError: (error) => this.logger.warn({ err: error, orgId }, 'reading the event stream failed'),
      });
      this.feeds.set(orgId, feed);
    }
    return feed;
  }

  /** A stream that ended (client gone, revoked, too slow, shut down): its place in the feed and its lease. */
  private forget(stream: OpenStream): void {
    if (!this.streams.delete(stream)) return;
    this.metrics.streamClosed();
    this.detach(stream.caller.orgId, stream.subscription);
    this.events
      .releaseLeases([stream.leaseId])
      .catch((error: unknown) => this.logger.warn({ err: error }, 'releasing an event stream lease failed'));
    if (this.streams.size === 0) {
      for (const timer of this.timers) clearInterval(timer);
      this.timers = [];
    }
  }

  /** Takes a subscription off its feed, and drops the feed once nothing follows it. */
  private detach(orgId: number, subscription: Subscription | undefined): void {
    const feed = this.feeds.get(orgId);
    if (!feed) return;
    if (subscription) feed.unsubscribe(subscription);
    if (feed.idle) {
      feed.close();
      this.feeds.delete(orgId);
    }
  }

  private startTimers(): void {
    if (this.timers.length > 0) return;
    const every = (ms: number, work: () => void | Promise<void>) => {
      const timer = setInterval(() => {
        Promise.resolve(work()).catch((error: unknown) =>
          this.logger.warn({ err: error }, 'event stream upkeep failed'),
        );
      }, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.config.eventStreams.heartbeatMs, () => {
      for (const stream of this.streams) stream.sse.write(': heartbeat\n\n');
      // Besides the notifications: a feed that missed one catches up here.
      this.wakeAll();
    });
    every(CREDENTIAL_CHECK_MS, async () => {
      const streams = [...this.streams];
      const lapsed = new Set(await this.credentials.lapsed(streams.map((stream) => stream.caller)));
      for (const stream of streams) {
        if (lapsed.has(stream.caller)) stream.sse.end('credentials revoked or expired');
      }
    });
    every(LEASE_RENEW_MS, async () => {
      const streams = [...this.streams];
      if (streams.length === 0) return;
      const held = await this.events.renewLeases(
        streams.map((stream) => stream.leaseId),
        LEASE_TTL_MS,
      );
      for (const stream of streams) if (!held.has(stream.leaseId)) stream.sse.end('lease lost');
    });
  }
}
