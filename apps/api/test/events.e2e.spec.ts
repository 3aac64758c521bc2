// The event log: GET /api/v1/events/ and /api/v1/events/{id}/ over real HTTP on a real database. Each entry
// is the event's id, its delivery status and the body the webhook carries, written from the stored text
// (digits and key order kept); filters, cursor pages, tenant isolation, bad input and scopes.
import { randomUUID } from 'node:crypto';

import { eventBodyText } from '@svc/protocol';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';

interface Entry {
  id: string;
  status: string;
  body: { event: Record<string, unknown>; data: Record<string, unknown> };
}

interface Page {
  items: Entry[];
  nextCursor: string | null;
}

describe('the event log', () => {
  let api: ApiFixture;
  let org: OrgSession;
  let other: OrgSession;

  beforeAll(async () => {
    api = await ApiFixture.start();
    org = await api.createOrg();
    other = await api.createOrg();
  });
  afterAll(async () => {
    await api.close();
  });

  /** An event row as the outbox writes it, with a data text of our choosing and a creation time. */
  const insert = async (
    orgId: number,
    values: { entity?: string; eventType?: string; data?: string; createdAt?: Date; status?: string } = {},
  ) => {
    const id = randomUUID();
    await api.rows(
      `INSERT INTO events (id, org_id, entity, event_type, data, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, coalesce($7, now()), coalesce($7, now()))`,
      [
        id,
        orgId,
        values.entity ?? 'Users',
        values.eventType ?? null,
        values.data ??
          `{"orgUserId":"u-${id.slice(0, 8)}","orgId":${orgId},"kyc":false,"tnc":true,"userStatus":"PENDING","userType":"CONSUMER"}`,
        values.status ?? 'PENDING',
        values.createdAt ?? null,
      ],
    );
    return id;
  };

  const list = async (session: OrgSession, query = '') => {
    const response = await session.bearer<Page>('GET', `/api/v1/events/${query}`, {
      scopes: ['BASE_MODULE:READ'],
    });
    expect(response.status).toBe(200);
    return response.body.data!;
  };

  it('answers the events of a user created through the api, with the body the webhook carries', async () => {
    const created = await org.signed('POST', '/api/v1/user/', {
      body: { orgUserId: 'log-alice', kyc: false, tnc: true },
    });
    expect(created.status).toBe(200);
    const [row] = await api.rows<{ id: string; created_at: Date; next_attempt_at: Date; data: string }>(
      "SELECT id, created_at, next_attempt_at, data::text AS data FROM events WHERE org_id = $1 AND data->>'orgUserId' = 'log-alice'",
      [org.orgId],
    );
    const response = await org.signed<Entry>('GET', `/api/v1/events/${row!.id}/`);
    expect(response.status).toBe(200);
    const expectedBody = eventBodyText(
      {
        orgId: org.orgId,
        entity: 'Users',
        numRetries: 0,
        createdAt: row!.created_at,
        updatedAt: row!.created_at,
      },
      row!.data,
    );
    expect(response.text).toBe(
      `{"code":200,"data":{"id":"${row!.id}","status":"PENDING","delivery":{"state":"PENDING","nextAttemptAt":"${row!.next_attempt_at.toISOString()}","lastError":null},"body":${expectedBody}},"error":null}`,
    );
    expect(response.body.data!.body).toEqual({
      event: {
        orgId: org.orgId,
        entity: 'Users',
        numRetries: 0,
        createdAt: row!.created_at.toISOString(),
        updatedAt: row!.created_at.toISOString(),
      },
      data: {
        orgUserId: 'log-alice',
        orgId: org.orgId,
        kyc: false,
        tnc: true,
        userStatus: 'PENDING',
        userType: 'CONSUMER',
      },
    });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('writes the stored data text as it is: every digit of an amount, keys in their order', async () => {
    const data = `{"id":7,"orgId":${org.orgId},"netExecutedAmount":123456789012345678901234567890.12345678,"quantity":0.10000000000000001,"rejectionReason":null}`;
    const orders = await insert(org.orgId, { entity: 'Orders', data });
    const actions = await insert(org.orgId, {
      entity: 'Actions',
      data: '{"name":"ASSET_ENABLE","newValues":{"ZZ":1,"10":0,"2B":1}}',
    });
    const one = await org.signed('GET', `/api/v1/events/${orders}/`);
    expect(one.text).toContain(`,"data":${data}}},"error":null}`);
    const page = await org.signed('GET', '/api/v1/events/?entity=Actions');
    expect(page.text).toContain(
      `"id":"${actions}","status":"PENDING","delivery":{"state":"PENDING","nextAttemptAt":`,
    );
    expect(page.text).toContain(
      `"lastError":null},"body":{"event":{"orgId":${org.orgId},"entity":"Actions","numRetries":0,`,
    );
    expect(page.text).toContain('"data":{"name":"ASSET_ENABLE","newValues":{"ZZ":1,"10":0,"2B":1}}}');
  });

  it('pages through the log oldest first, and filters by entity, eventType, status and time', async () => {
    const session = await api.createOrg();
    const base = Date.parse('2026-03-01T10:00:00.000Z');
    const at = (minutes: number) => new Date(base + minutes * 60_000);
    const ids = [
      await insert(session.orgId, { createdAt: at(0) }),
      await insert(session.orgId, { createdAt: at(1), eventType: 'KYC_PENDING', status: 'DELIVERED' }),
      await insert(session.orgId, {
        createdAt: at(2),
        entity: 'Actions',
        data: '{"name":"QUOTE_LIMIT","newValues":{"EUR":5}}',
        status: 'FAILED',
      }),
      await insert(session.orgId, { createdAt: at(2), eventType: 'KYC_RFI', status: 'SKIPPED' }),
      await insert(session.orgId, { createdAt: at(3) }),
    ];
    // Two at the same millisecond keep their insertion order.
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Page = await list(session, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect(pages).toBe(3);

    const idsOf = async (query: string) => (await list(session, query)).items.map((item) => item.id);
    expect(await idsOf('?entity=Actions')).toEqual([ids[2]]);
    expect(await idsOf('?eventType=KYC_RFI')).toEqual([ids[3]]);
    expect(await idsOf('?entity=Users&status=PENDING')).toEqual([ids[0], ids[4]]);
    expect(await idsOf('?status=DELIVERED')).toEqual([ids[1]]);
    expect(await idsOf(`?since=${at(1).toISOString()}&until=${at(3).toISOString()}`)).toEqual(
      ids.slice(1, 4),
    );
    expect(await idsOf('?since=2026-03-01T11:02:00%2B01:00')).toEqual(ids.slice(2));
    const statuses = (await list(session)).items.map((item) => item.status);
    expect(statuses).toEqual(['PENDING', 'DELIVERED', 'FAILED', 'SKIPPED', 'PENDING']);
  });

  it("never shows another organisation's events", async () => {
    const mine = await insert(org.orgId);
    const theirs = await insert(other.orgId);
    const ids = (await org.signed<Page>('GET', '/api/v1/events/?limit=100')).body.data!.items.map(
      (item) => item.id,
    );
    expect(ids).toContain(mine);
    expect(ids).not.toContain(theirs);
    for (const item of (await list(other, '?limit=100')).items)
      expect(item.body.event.orgId).toBe(other.orgId);
    const foreign = await org.signed('GET', `/api/v1/events/${theirs}/`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ code: 404, data: null, error: `Not Found: no event ${theirs}` });
  });

  it('refuses bad input with a 400 naming the field and the rule', async () => {
    const cases: [string, RegExp][] = [
      [
        '?entity=Trades',
        /entity must be one of the following values: Orders, Users, Actions, SystemInformation/,
      ],
      ['?eventType=KYC_MAYBE', /eventType must be one of the following values/],
      ['?status=LOST', /status must be one of the following values: PENDING, DELIVERED, FAILED, SKIPPED/],
      ['?since=2026-02-30T00:00:00Z', /since must be an ISO 8601 date and time with a zone/],
      ['?until=yesterday', /until must be an ISO 8601 date and time with a zone/],
      ['?cursor=bm90LWEtY3Vyc29y', /cursor must be a nextCursor returned by the previous page/],
      ['?limit=0', /limit must not be less than 1/],
      ['?colour=red', /property colour should not exist/],
    ];
    for (const [query, message] of cases) {
      const response = await org.signed('GET', `/api/v1/events/${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
      expect(response.body.error).toMatch(message);
    }
    const notUuid = await org.signed('GET', '/api/v1/events/not-a-uuid/');
    expect(notUuid.status).toBe(400);
  });

  it('needs BASE_MODULE:READ: another scope gets the insufficient-scope 401, no credentials the envelope 401', async () => {
    const denied = await org.bearer('GET', '/api/v1/events/', { scopes: ['MANAGE_USERS:READWRITE'] });
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({
      message: 'You are not authorized to perform this action: it needs BASE_MODULE:READ',
      status: 401,
    });
    const anonymous = await api.request('GET', '/api/v1/events/');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(401);
  });
});
