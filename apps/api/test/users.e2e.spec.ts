// Users end to end: create, get, list, update; their events; bad input on every field; scopes and
// tenant isolation.
import { ApiFixture, type OrgSession } from './support/app-fixture.js';

interface UserData {
  orgUserId: string;
  orgId: number;
  kyc: boolean;
  tnc: boolean;
  userStatus: string;
  userType: string;
}

describe('users', () => {
  let api: ApiFixture;
  let org: OrgSession;
  let other: OrgSession;

  beforeAll(async () => {
    api = await ApiFixture.start();
    org = await api.createOrg();
    other = await api.createOrg();
  });
  afterAll(() => api.close());

  const counts = async () => {
    const [row] = await api.rows<{ users: number; events: number; jobs: number }>(
      `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM events) AS events,
              ${api.queuedDeliveries} AS jobs`,
    );
    return row;
  };

  describe('POST /api/v1/user/', () => {
    it('creates a PENDING user, its Users event with the user record (docs/api-guide.md#users-events), and the delivery job, together', async () => {
      const response = await org.signed<UserData>('POST', '/api/v1/user/', {
        body: { orgUserId: 'alice', kyc: false, tnc: true },
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        orgUserId: 'alice',
        orgId: org.orgId,
        kyc: false,
        tnc: true,
        userStatus: 'PENDING',
        userType: 'CONSUMER',
      });
      const [event] = await api.rows<{
        id: string;
        entity: string;
        event_type: string | null;
        data: UserData;
      }>(
        "SELECT id, entity, event_type, data FROM events WHERE data->>'orgUserId' = 'alice' AND org_id = $1",
        [org.orgId],
      );
      expect(event).toMatchObject({ entity: 'Users', event_type: null });
      expect(event?.data).toEqual({
        orgUserId: 'alice',
        orgId: org.orgId,
        kyc: false,
        tnc: true,
        userStatus: 'PENDING',
        userType: 'CONSUMER',
      });
      expect(await api.queuedFor([event!.id])).toBe(1);
    });

    it('makes a user whose organisation ran KYC itself (kyc: true) ACTIVE at once', async () => {
      const response = await org.signed<UserData>('POST', '/api/v1/user/', {
        body: { orgUserId: 'bob', kyc: true, tnc: true },
      });
      expect(response.body.data).toMatchObject({ kyc: true, userStatus: 'ACTIVE' });
    });

    it('refuses a second user with the same orgUserId with 409 and writes nothing', async () => {
      const before = await counts();
      const response = await org.signed('POST', '/api/v1/user/', {
        body: { orgUserId: 'alice', kyc: true, tnc: false },
      });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({
        code: 409,
        data: null,
        error: 'Conflict: a user with orgUserId "alice" already exists',
      });
      expect(await counts()).toEqual(before);
    });

    it.each([
      [{ kyc: false, tnc: true }, 'orgUserId should not be null or undefined'],
      [{ orgUserId: 7, kyc: false, tnc: true }, 'orgUserId must be a string'],
      [{ orgUserId: '', kyc: false, tnc: true }, 'orgUserId must be 1 to 128 characters'],
      [{ orgUserId: 'x'.repeat(129), kyc: false, tnc: true }, 'orgUserId must be 1 to 128 characters'],
      [{ orgUserId: 'has space', kyc: false, tnc: true }, 'orgUserId must be 1 to 128 characters'],
      [{ orgUserId: 'u-x', tnc: true }, 'kyc should not be null or undefined'],
      [{ orgUserId: 'u-x', kyc: 'true', tnc: true }, 'kyc must be a boolean value'],
      [{ orgUserId: 'u-x', kyc: null, tnc: true }, 'kyc should not be null or undefined'],
      [{ orgUserId: 'u-x', kyc: false }, 'tnc should not be null or undefined'],
      [{ orgUserId: 'u-x', kyc: false, tnc: 1 }, 'tnc must be a boolean value'],
      [{ orgUserId: 'u-x', kyc: false, tnc: true, admin: true }, 'property admin should not exist'],
    ])('answers 400 naming the field and rule for %j, storing nothing', async (body, message) => {
      const before = await counts();
      const response = await org.signed('POST', '/api/v1/user/', { body });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 400, data: null });
      expect(response.body.error).toContain(message);
      expect(await counts()).toEqual(before);
    });

    it.each([
      ['no body', undefined],
      ['an array', '[{"orgUserId":"u-y","kyc":false,"tnc":true}]'],
      ['invalid JSON', '{"orgUserId":'],
    ])('answers 400 for %s, storing nothing', async (_name, rawBody) => {
      const before = await counts();
      // A bearer caller: invalid JSON cannot even be signed.
      const response = await org.bearer('POST', '/api/v1/user/', rawBody === undefined ? {} : { rawBody });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 400, data: null });
      expect(await counts()).toEqual(before);
    });
  });

  describe('GET, list and PATCH', () => {
    beforeAll(async () => {
      for (const [orgUserId, kyc, tnc] of [
        ['list-1', false, true],
        ['list-2', true, true],
        ['list-3', false, false],
        ['list-4', true, false],
        ['list-5', false, true],
      ] as const) {
        const created = await org.bearer('POST', '/api/v1/user/', { body: { orgUserId, kyc, tnc } });
        expect(created.status).toBe(200);
      }
    });

    it('gets one user by orgUserId, and 404 for an unknown one', async () => {
      const found = await org.bearer<UserData>('GET', '/api/v1/user/list-2/', {
        scopes: ['MANAGE_USERS:READ'],
      });
      expect(found.status).toBe(200);
      expect(found.body.data).toMatchObject({ orgUserId: 'list-2', kyc: true, userStatus: 'ACTIVE' });
      const missing = await org.signed('GET', '/api/v1/user/nobody/');
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe('Not Found: no user with orgUserId "nobody"');
    });

    it('pages through every user in creation order with an opaque cursor', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor ? `?limit=3&cursor=${cursor}` : '?limit=3';
        const page = await org.signed<{ items: UserData[]; nextCursor: string | null }>(
          'GET',
          `/api/v1/user/${query}`,
        );
        expect(page.status).toBe(200);
        const data = page.body.data!;
        expect(data.items.length).toBeLessThanOrEqual(3);
        seen.push(...data.items.map((user) => user.orgUserId));
        cursor = data.nextCursor;
        pages++;
      } while (cursor && pages < 10);
      const stored = await api.rows<{ org_user_id: string }>(
        'SELECT org_user_id FROM users WHERE org_id = $1 ORDER BY id',
        [org.orgId],
      );
      expect(seen).toEqual(stored.map((row) => row.org_user_id));
      expect(pages).toBe(Math.ceil(stored.length / 3));
    });

    it('filters by userStatus, kyc and tnc', async () => {
      const list = async (query: string) =>
        (await org.signed<{ items: UserData[] }>('GET', `/api/v1/user/?${query}`)).body.data!.items;
      expect((await list('userStatus=ACTIVE')).every((user) => user.userStatus === 'ACTIVE')).toBe(true);
      expect((await list('kyc=true&tnc=false')).map((user) => user.orgUserId)).toEqual(['list-4']);
      expect((await list('tnc=false')).map((user) => user.orgUserId)).toEqual(['list-3', 'list-4']);
    });

    it.each([
      ['limit=0', 'limit must not be less than 1'],
      ['limit=101', 'limit must not be greater than 100'],
      ['limit=abc', 'limit must be an integer number'],
      ['cursor=not%20a%20cursor', 'cursor must be a nextCursor returned by the previous page'],
      ['cursor=Zm9v', 'cursor must be a nextCursor returned by the previous page'],
      ['userStatus=GONE', 'userStatus must be one of the following values'],
      ['kyc=yes', 'kyc must be a boolean value'],
      ['colour=red', 'property colour should not exist'],
    ])('answers 400 for the query %s', async (query, message) => {
      const response = await org.signed('GET', `/api/v1/user/?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(message);
    });

    it('updates tnc with its Users event; the same value again writes nothing', async () => {
      const updated = await org.signed<UserData>('PATCH', '/api/v1/user/list-3/', { body: { tnc: true } });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ orgUserId: 'list-3', tnc: true });
      const events = await api.rows<{ data: UserData }>(
        "SELECT data FROM events WHERE org_id = $1 AND data->>'orgUserId' = 'list-3' ORDER BY created_at",
        [org.orgId],
      );
      expect(events.map((event) => event.data.tnc)).toEqual([false, true]);
      const before = await counts();
      // Signed again within the same second it would be a replay; a bearer token may repeat itself.
      expect((await org.bearer('PATCH', '/api/v1/user/list-3/', { body: { tnc: true } })).status).toBe(200);
      expect(await counts()).toEqual(before);
    });

    it.each([
      [{}, 'tnc should not be null or undefined'],
      [{ tnc: 'no' }, 'tnc must be a boolean value'],
      [{ tnc: true, kyc: true }, 'property kyc should not exist'],
    ])('answers 400 to the update %j, storing nothing', async (body, message) => {
      const before = await counts();
      const response = await org.signed('PATCH', '/api/v1/user/list-1/', { body });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(message);
      expect(await counts()).toEqual(before);
    });
  });

  describe('scopes', () => {
    it('reads need MANAGE_USERS:READ and writes MANAGE_USERS:WRITE (READWRITE grants both)', async () => {
      const read = await org.bearer('GET', '/api/v1/user/', { scopes: ['MANAGE_USERS:READ'] });
      expect(read.status).toBe(200);
      const write = await org.bearer('POST', '/api/v1/user/', {
        body: { orgUserId: 'scoped-1', kyc: false, tnc: true },
        scopes: ['MANAGE_USERS:READ'],
      });
      expect(write.status).toBe(401);
      expect(write.body).toEqual({
        message: 'You are not authorized to perform this action: it needs MANAGE_USERS:WRITE',
        status: 401,
      });
      const both = await org.bearer('POST', '/api/v1/user/', {
        body: { orgUserId: 'scoped-2', kyc: false, tnc: true },
        scopes: ['MANAGE_USERS:READWRITE'],
      });
      expect(both.status).toBe(200);
      const baseOnly = await org.bearer('GET', '/api/v1/user/', { scopes: ['BASE_MODULE:READWRITE'] });
      expect(baseOnly.status).toBe(401);
      expect((await api.rows("SELECT 1 FROM users WHERE org_user_id = 'scoped-1'")).length).toBe(0);
    });
  });

  describe('tenant isolation', () => {
    it("never shows or changes another organisation's users, with either credential", async () => {
      for (const call of [other.signed.bind(other), other.bearer.bind(other)]) {
        expect((await call('GET', '/api/v1/user/alice/')).status).toBe(404);
        const update = await call('PATCH', '/api/v1/user/alice/', { body: { tnc: false } });
        expect(update.status).toBe(404);
        const list = await call<{ items: UserData[] }>('GET', '/api/v1/user/');
        expect(list.body.data!.items.every((user) => user.orgId === other.orgId)).toBe(true);
        const org = await call<{ orgId: number }>('GET', '/api/v1/org/');
        expect(org.body.data!.orgId).toBe(other.orgId);
      }
      const [alice] = await api.rows<{ tnc: boolean }>(
        "SELECT tnc FROM users WHERE org_user_id = 'alice' AND org_id = $1",
        [org.orgId],
      );
      expect(alice?.tnc).toBe(true);
    });

    it('lets another organisation use the same orgUserId for its own user', async () => {
      const response = await other.signed<UserData>('POST', '/api/v1/user/', {
        body: { orgUserId: 'alice', kyc: false, tnc: false },
      });
      expect(response.status).toBe(200);
      expect(response.body.data!.orgId).toBe(other.orgId);
    });
  });
});
