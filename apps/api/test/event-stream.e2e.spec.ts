// The event stream, GET /api/v1/events/stream, over real HTTP with two api instances on one real database:
// events written through one instance reach streams held by the other; transactions that commit out of
// order are delivered once each, in order; Last-Event-ID and since resume without gaps or repeats;
// heartbeats; the per-organisation cap over both instances; revoked credentials and shutdown end streams.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';

import { eventBodyText } from '@svc/protocol';
import type { QueryRunner } from 'typeorm';

import { OutboxService } from '../src/outbox/outbox.service.js';
import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import { type EventStreamClient, openEventStream } from './support/event-stream-client.js';

const ENV = { EVENT_STREAM_HEARTBEAT_MS: '200', EVENT_STREAMS_PER_ORG: '3' };

describe('the event stream', () => {
  let a: ApiFixture;
  let b: ApiFixture;
  let org: OrgSession;
  const open: EventStreamClient[] = [];

  beforeAll(async () => {
    a = await ApiFixture.start(ENV);
    b = await ApiFixture.start(ENV, { besides: a });
    org = await a.createOrg();
  });
  afterEach(async () => {
    for (const stream of open.splice(0)) await stream.close();
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  const stream = async (...args: Parameters<typeof openEventStream>) => {
    const client = await openEventStream(...args);
    open.push(client);
    return client;
  };

  /** A user created through `api`: its Users event commits with it. Answers the event's id. */
  const createUser = async (api: ApiFixture, session: OrgSession, orgUserId: string) => {
    const signed = session.on(api);
    const response = await signed.signed('POST', '/api/v1/user/', {
      body: { orgUserId, kyc: false, tnc: true },
    });
    expect(response.status).toBe(200);
    const [row] = await a.rows<{ id: string }>(
      "SELECT id FROM events WHERE org_id = $1 AND data->>'orgUserId' = $2",
      [session.orgId, orgUserId],
    );
    return row!.id;
  };

  /** An event in a transaction left open: the caller commits or rolls it back. */
  const openTransaction = async (session: OrgSession, name: string) => {
    const runner: QueryRunner = a.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    const id = await a.app.get(OutboxService).record(runner.manager, {
      orgId: session.orgId,
      entity: 'Users',
      data: {
        orgUserId: name,
        orgId: session.orgId,
        kyc: false,
        tnc: true,
        userStatus: 'PENDING',
        userType: 'CONSUMER',
      },
    });
    return {
      id,
      commit: async () => {
        await runner.commitTransaction();
        await runner.release();
      },
      rollback: async () => {
        await runner.rollbackTransaction();
        await runner.release();
      },
    };
  };

  const quietFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('delivers every new event of the organisation as it commits, from either instance, with heartbeats', async () => {
    const other = await a.createOrg();
    const client = await stream(b, org);
    expect(client.status).toBe(200);
    expect(client.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(client.headers.get('cache-control')).toBe('no-store');
    expect(client.headers.get('x-request-id')).toBeTruthy();

    const ids = [await createUser(a, org, 'one'), await createUser(b, org, 'two')];
    await createUser(a, other, 'not-yours');
    ids.push(await createUser(a, org, 'three'));
    await client.untilMessages(3);
    expect(client.ids).toEqual(ids);
    // Each message's data is the event's body, byte for byte what the log answers and the webhook carries.
    for (const message of client.messages) {
      const [row] = await a.rows<{ created_at: Date; data: string }>(
        'SELECT created_at, data::text AS data FROM events WHERE id = $1',
        [message.id],
      );
      expect(message.data).toBe(
        eventBodyText(
          {
            orgId: org.orgId,
            entity: 'Users',
            numRetries: 0,
            createdAt: row!.created_at,
            updatedAt: row!.created_at,
          },
          row!.data,
        ),
      );
      const logged = await org.signed('GET', `/api/v1/events/${message.id}/`);
      expect(logged.text).toContain(`"body":${message.data}}`);
    }
    await client.until((c) => c.frames.filter((f) => f.text === 'heartbeat').length >= 2, 'two heartbeats');
    expect(client.frames[0]).toEqual({ kind: 'retry', text: '2000' });
    await quietFor(300);
    expect(client.messages).toHaveLength(3);
  });

  it('holds back an event committed before an older transaction ends, then delivers both once, in order', async () => {
    const session = await a.createOrg();
    const client = await stream(a, session);
    const slow = await openTransaction(session, 'slow'); // the older transaction: inserted first
    const quick = await openTransaction(session, 'quick');
    await quick.commit();
    // A cursor on the insertion order would hand out `quick` now and skip `slow` when it commits.
    await quietFor(500);
    expect(client.messages).toHaveLength(0);
    await slow.commit();
    await client.untilMessages(2);
    expect(client.ids).toEqual([slow.id, quick.id]);

    const doomed = await openTransaction(session, 'doomed');
    const kept = await openTransaction(session, 'kept');
    await kept.commit();
    await quietFor(300);
    expect(client.messages).toHaveLength(2);
    await doomed.rollback();
    await client.untilMessages(3);
    await quietFor(300);
    expect(client.ids).toEqual([slow.id, quick.id, kept.id]);
  });

  it('resumes after Last-Event-ID on the other instance, with no gap and no repeat, a late commit included', async () => {
    const session = await a.createOrg();
    const first = await stream(a, session);
    const e1 = await createUser(a, session, 'r1');
    const e2 = await createUser(a, session, 'r2');
    await first.untilMessages(2);
    const late = await openTransaction(session, 'late');
    const e3 = await createUser(b, session, 'r3');
    await quietFor(300);
    expect(first.ids).toEqual([e1, e2]); // e3 waits behind the open transaction
    await first.close();
    const e4 = await createUser(a, session, 'r4');
    await late.commit();

    const resumed = await stream(b, session, { headers: { 'last-event-id': e2 } });
    await resumed.untilMessages(3);
    const e5 = await createUser(b, session, 'r5');
    await resumed.untilMessages(4);
    await quietFor(300);
    expect(resumed.ids).toEqual([late.id, e3, e4, e5]);
  });

  it('starts at a time with since, then follows; Last-Event-ID takes precedence over since', async () => {
    const session = await a.createOrg();
    const insert = async (minutesAgo: number) => {
      const id = randomUUID();
      await a.rows(
        `INSERT INTO events (id, org_id, entity, data, created_at, updated_at)
         VALUES ($1, $2, 'Actions', '{"name":"QUOTE_LIMIT","newValues":{"EUR":1}}', now() - $3 * interval '1 minute', now() - $3 * interval '1 minute')`,
        [id, session.orgId, minutesAgo],
      );
      return id;
    };
    const old = await insert(60);
    const middle = await insert(20);
    const recent = await insert(5);
    const since = new Date(Date.now() - 30 * 60_000).toISOString();
    const client = await stream(a, session, { query: `?since=${since}` });
    await client.untilMessages(2);
    const live = await createUser(a, session, 'after-since');
    await client.untilMessages(3);
    expect(client.ids).toEqual([middle, recent, live]);
    expect(client.ids).not.toContain(old);

    const resumed = await stream(b, session, {
      query: `?since=${since}`,
      headers: { 'last-event-id': recent },
    });
    await resumed.untilMessages(1);
    await quietFor(300);
    expect(resumed.ids).toEqual([live]);
  });

  it('refuses a bad start with a 400 naming it, and needs BASE_MODULE:READ', async () => {
    const other = await a.createOrg();
    const theirs = await createUser(a, other, 'theirs');
    const path = '/api/v1/events/stream';
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ 'last-event-id': 'nope' }, '', /Last-Event-ID must be the id \(a UUID\) of an event/],
      [{ 'last-event-id': theirs }, '', /Last-Event-ID: no event .* in the organisation's log/],
      [{}, '?since=2026-13-01T00:00:00Z', /since must be an ISO 8601 date and time with a zone/],
      [{}, '?from=now', /property from should not exist/],
    ];
    const token = await org.token(['BASE_MODULE:READ']);
    for (const [headers, query, message] of cases) {
      const response = await org.bearer('GET', path + query, { headers, scopes: ['BASE_MODULE:READ'] });
      expect({ query, headers, status: response.status }).toEqual({ query, headers, status: 400 });
      expect(response.body.error).toMatch(message);
    }
    const denied = await org.bearer('GET', path, { scopes: ['MANAGE_USERS:READ'] });
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({
      message: 'You are not authorized to perform this action: it needs BASE_MODULE:READ',
      status: 401,
    });
    expect((await a.request('GET', path)).status).toBe(401);
    // A bearer token with the scope opens it.
    expect((await stream(a, org, { bearer: token })).status).toBe(200);
  });

  it('answers HEAD with the headers of a stream, no body and no place taken', async () => {
    const session = await a.createOrg();
    const token = await session.token(['BASE_MODULE:READ']);
    const response = await fetch(`${a.baseUrl}/api/v1/events/stream`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await response.text()).toBe('');
    expect(await a.rows('SELECT id FROM event_streams WHERE org_id = $1', [session.orgId])).toEqual([]);
  });

  it('caps the streams of an organisation over both instances with a 429, and frees a place when one closes', async () => {
    const session = await a.createOrg();
    const held = [await stream(a, session), await stream(b, session), await stream(a, session)];
    const refused = await session.bearer('GET', '/api/v1/events/stream', { scopes: ['BASE_MODULE:READ'] });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body).toEqual({
      code: 429,
      data: null,
      error:
        'Too Many Requests: the organisation already has 3 event streams open (EVENT_STREAMS_PER_ORG): close one, or retry later',
    });
    const onB = session.on(b);
    expect((await onB.bearer('GET', '/api/v1/events/stream')).status).toBe(429);
    // Another organisation has places of its own.
    expect((await stream(b, org)).status).toBe(200);

    await held[0]!.close();
    const leases = async () =>
      (
        await a.rows<{ n: number }>('SELECT count(*)::int AS n FROM event_streams WHERE org_id = $1', [
          session.orgId,
        ])
      )[0]!.n;
    const deadline = Date.now() + 5000;
    while ((await leases()) > 2 && Date.now() < deadline) await quietFor(50);
    expect(await leases()).toBe(2);
    expect((await stream(b, session)).status).toBe(200);
    expect(await leases()).toBe(3);

    // Places held by an instance that died lapse when their lease does (renewed every 20 s, valid 60 s).
    const lapsedOrg = await a.createOrg();
    await a.rows(
      `INSERT INTO event_streams (id, org_id, expires_at)
       SELECT gen_random_uuid(), $1, now() - interval '1 second' FROM generate_series(1, 3)`,
      [lapsedOrg.orgId],
    );
    expect((await stream(a, lapsedOrg)).status).toBe(200);
    expect(
      await a.rows('SELECT id FROM event_streams WHERE org_id = $1 AND expires_at > now()', [
        lapsedOrg.orgId,
      ]),
    ).toHaveLength(1);
  });

  it('ends a stream within seconds of its API key being revoked', async () => {
    const session = await a.createOrg();
    const client = await stream(b, session);
    await createUser(a, session, 'before-revoke');
    await client.untilMessages(1);
    const revoked = await a.admin(
      'POST',
      `/api/v1/admin/orgs/${session.orgId}/api-keys/${session.apiKey}/revoke/`,
    );
    expect(revoked.status).toBe(200);
    await client.ended;
    expect(client.frames.at(-1)).toEqual({ kind: 'comment', text: 'credentials revoked or expired' });
  });

  it('ends its streams cleanly when an instance shuts down; the client resumes on another', async () => {
    const session = await a.createOrg();
    const c = await ApiFixture.start(ENV, { besides: a });
    const client = await openEventStream(c, session);
    const e1 = await createUser(a, session, 'before-shutdown');
    await client.untilMessages(1);
    // A connection a client opened and never used (as undici keeps one spare after an aborted stream).
    const { port } = new URL(c.baseUrl);
    const spare = connect(Number(port), '127.0.0.1');
    await once(spare, 'connect');
    spare.on('error', () => undefined);
    // Listened for before the close, which may destroy it before c.close() resolves.
    const spareClosed = once(spare, 'close').then(() => true);
    const started = Date.now();
    await c.close();
    // Neither the stream nor the unused connection holds the shutdown (each would for the 72 s keep-alive).
    expect(Date.now() - started).toBeLessThan(3000);
    const dropped = await Promise.race([
      spareClosed,
      new Promise((resolve) => setTimeout(() => resolve(false), 2000)),
    ]);
    expect(dropped).toBe(true);
    await client.ended;
    expect(client.frames.at(-1)).toEqual({ kind: 'comment', text: 'closing: reconnect with Last-Event-ID' });
    const leases = await a.rows('SELECT id FROM event_streams WHERE org_id = $1', [session.orgId]);
    expect(leases).toEqual([]);

    const e2 = await createUser(a, session, 'after-shutdown');
    const resumed = await stream(a, session, { headers: { 'last-event-id': client.ids.at(-1)! } });
    await resumed.untilMessages(1);
    expect([...client.ids, ...resumed.ids]).toEqual([e1, e2]);
  });
});
