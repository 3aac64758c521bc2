// Idempotency-Key end to end (docs/api-guide.md#idempotent-retries): a repeat answers the kept bytes and
// does nothing; another request with the key is a 422; a key claimed by a request still running is a 409;
// 24 hours of life; both ways to authenticate; per organisation; the header's rules; the signature without it.
import { randomUUID } from 'node:crypto';

import { signedRequestHeaders } from '@svc/protocol';

import { ApiFixture, type OrgSession, type TestResponse } from './support/app-fixture.js';

describe('Idempotency-Key', () => {
  let api: ApiFixture;
  let org: OrgSession;
  let other: OrgSession;

  beforeAll(async () => {
    api = await ApiFixture.start();
    org = await api.createOrg();
    other = await api.createOrg();
    await api.rows("INSERT INTO prices (symbol, price) VALUES ('BTC_EUR', '50000.12345678')");
    await api.rows(
      `UPDATE organisations SET policy = policy || '{"enabledAssets":["BTC"],"commissionRate":"0.0015","vatRate":"0.21"}'::jsonb`,
    );
  });
  afterAll(() => api.close());

  const counts = async () => {
    const [row] = await api.rows<{ users: number; orders: number; events: number }>(
      `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM orders) AS orders,
              (SELECT count(*)::int FROM events) AS events`,
    );
    return row!;
  };
  const keyRow = async (session: OrgSession, key: string) => {
    const [row] = await api.rows<{ response_status: number | null; locked_until: Date | null; body: string }>(
      `SELECT response_status, locked_until, convert_from(response_body, 'UTF8') AS body
         FROM idempotency_keys WHERE org_id = $1 AND key = $2`,
      [session.orgId, key],
    );
    return row;
  };
  const tokens = new Map<OrgSession, string>();
  /**
   * Creates a user with the key: with a bearer token (one per organisation, so requests at once stay
   * distinct), or signed (a signature is taken once: two signed requests alike need a second between them).
   */
  const createUser = async (
    session: OrgSession,
    key: string,
    orgUserId: string,
    via: 'signed' | 'bearer' = 'bearer',
  ): Promise<TestResponse> => {
    const body = { orgUserId, kyc: true, tnc: true };
    if (via === 'signed')
      return session.signed('POST', '/api/v1/user/', { body, headers: { 'idempotency-key': key } });
    if (!tokens.has(session)) tokens.set(session, await session.token(['MANAGE_USERS:WRITE']));
    return api.request('POST', '/api/v1/user/', {
      body,
      headers: { 'idempotency-key': key, authorization: `Bearer ${tokens.get(session)!}` },
    });
  };

  describe('a repeat of the request', () => {
    it('answers the kept bytes, marked as replayed, and writes nothing more', async () => {
      const key = randomUUID();
      const first = await createUser(org, key, 'replayed-user', 'signed');
      expect(first.status).toBe(200);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const before = await counts();

      const again = await createUser(org, key, 'replayed-user');
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
      expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
      expect(await counts()).toEqual(before);
      expect(await keyRow(org, key)).toMatchObject({
        response_status: 200,
        locked_until: null,
        body: first.text,
      });
    });

    it("gives an order's amounts back digit for digit, as first answered", async () => {
      await createUser(org, randomUUID(), 'trader');
      const key = randomUUID();
      const body = {
        orgUserId: 'trader',
        clientOrderId: randomUUID(),
        symbol: 'BTC_EUR',
        side: 'BUY',
        type: 'MARKET',
        quantity: 0.00012345,
      };
      const first = await org.bearer('POST', '/api/v1/orders/', {
        body,
        headers: { 'idempotency-key': key },
      });
      expect(first.status).toBe(200);
      expect(first.text).toContain('"price":50000.12345678');
      const before = await counts();
      const again = await org.bearer('POST', '/api/v1/orders/', {
        body,
        headers: { 'idempotency-key': key },
      });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(Buffer.from(again.text)).toEqual(Buffer.from(first.text));
      expect(await counts()).toEqual(before);
    });

    it('replays a kept refusal too: a 409 of the work (the orgUserId taken) comes back as it was', async () => {
      await createUser(org, randomUUID(), 'taken');
      const key = randomUUID();
      const first = await createUser(org, key, 'taken');
      expect(first.status).toBe(409);
      const again = await createUser(org, key, 'taken');
      expect(again.status).toBe(409);
      expect(again.text).toBe(first.text);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    });

    it('is the same request whichever way the organisation authenticates: signed first, replayed to a bearer token', async () => {
      const key = randomUUID();
      const first = await createUser(org, key, 'both-ways', 'signed');
      const before = await counts();
      const again = await createUser(org, key, 'both-ways', 'bearer');
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
      expect(await counts()).toEqual(before);
    });
  });

  describe('another request with a used key', () => {
    it('is a 422 naming the key when the body differs, and writes nothing', async () => {
      const key = `reused-${randomUUID()}`;
      expect((await createUser(org, key, 'first-body', 'signed')).status).toBe(200);
      const before = await counts();
      const other = await createUser(org, key, 'second-body');
      expect(other.status).toBe(422);
      expect(other.body).toEqual({
        code: 422,
        data: null,
        error: `Unprocessable Content: idempotency_key_reused: the Idempotency-Key "${key}" was first used for POST /api/v1/user/ with another body; use a new key for a new request`,
      });
      expect(await counts()).toEqual(before);
      expect(await api.rows("SELECT 1 FROM users WHERE org_user_id = 'second-body'")).toEqual([]);
    });

    it('is a 422 when the path differs', async () => {
      const key = randomUUID();
      expect((await createUser(org, key, 'path-user')).status).toBe(200);
      const before = await counts();
      const response = await org.signed('PATCH', '/api/v1/user/path-user', {
        body: { tnc: false },
        headers: { 'idempotency-key': key },
      });
      expect(response.status).toBe(422);
      expect(response.body.error).toContain('was first used for POST /api/v1/user/;');
      expect(await counts()).toEqual(before);
      expect(await api.rows("SELECT tnc FROM users WHERE org_user_id = 'path-user'")).toEqual([
        { tnc: true },
      ]);
    });
  });

  describe('a key claimed by a request still running', () => {
    const claimed = async (session: OrgSession, key: string, orgUserId: string, lockedFor: string) => {
      // What the guard writes when it claims: the request's fingerprint and a lock, no answer yet.
      const body = JSON.stringify({ orgUserId, kyc: true, tnc: true });
      await api.rows(
        `INSERT INTO idempotency_keys (org_id, key, method, target, body_sha256, locked_until, expires_at)
         VALUES ($1, $2, 'POST', '/api/v1/user/', sha256(convert_to($3, 'UTF8')), now() + $4::interval,
                 now() + interval '1 day')`,
        [session.orgId, key, body, lockedFor],
      );
    };

    it('is a 409 idempotency_key_in_use with Retry-After, and nothing runs', async () => {
      const key = randomUUID();
      await claimed(org, key, 'running', '1 minute');
      const before = await counts();
      const response = await createUser(org, key, 'running');
      expect(response.status).toBe(409);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.body.error).toMatch(
        /^Conflict: idempotency_key_in_use: a request with the Idempotency-Key ".+" is still running/,
      );
      expect(await counts()).toEqual(before);
      expect(await keyRow(org, key)).toMatchObject({ response_status: null });
    });

    it('runs the request once the claim has lapsed (its process died), and keeps the answer', async () => {
      const key = randomUUID();
      await claimed(org, key, 'lapsed', '-1 second');
      const response = await createUser(org, key, 'lapsed');
      expect(response.status).toBe(200);
      expect(await api.rows("SELECT 1 AS one FROM users WHERE org_user_id = 'lapsed'")).toEqual([{ one: 1 }]);
      expect(await keyRow(org, key)).toMatchObject({ response_status: 200, locked_until: null });
    });

    it('lets exactly one of several requests sent at once run', async () => {
      const key = randomUUID();
      const before = await counts();
      const answers = await Promise.all(Array.from({ length: 8 }, () => createUser(org, key, 'at-once')));
      const ran = answers.filter((a) => a.status === 200 && a.headers.get('idempotent-replayed') === null);
      expect(ran).toHaveLength(1);
      for (const answer of answers) {
        if (answer.status === 200) expect(answer.text).toBe(ran[0]!.text);
        else expect(answer.body.error).toContain('idempotency_key_in_use');
      }
      const after = await counts();
      expect(after).toEqual({ ...before, users: before.users + 1, events: before.events + 1 });
    });
  });

  it('lives 24 hours: once expired, the key is new and another request may take it', async () => {
    const key = randomUUID();
    await createUser(org, key, 'before-expiry');
    const [row] = await api.rows<{ hours: number }>(
      'SELECT extract(epoch FROM expires_at - created_at)::int / 3600 AS hours FROM idempotency_keys WHERE org_id = $1 AND key = $2',
      [org.orgId, key],
    );
    expect(row).toEqual({ hours: 24 });
    await api.rows("UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1", [
      key,
    ]);
    const response = await createUser(org, key, 'after-expiry');
    expect(response.status).toBe(200);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    expect(await keyRow(org, key)).toMatchObject({ response_status: 200, body: response.text });
  });

  it('is per organisation: the same key of two organisations is two keys', async () => {
    const key = randomUUID();
    const mine = await createUser(org, key, 'shared-name');
    const theirs = await createUser(other, key, 'shared-name');
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect((theirs.body.data as { orgId: number }).orgId).toBe(other.orgId);
    expect(
      await api.rows('SELECT org_id FROM idempotency_keys WHERE key = $1 ORDER BY org_id', [key]),
    ).toEqual([{ org_id: org.orgId }, { org_id: other.orgId }].sort((a, b) => a.org_id - b.org_id));
  });

  describe('what is kept', () => {
    it('keeps nothing for a request that fails authentication', async () => {
      const key = randomUUID();
      const response = await api.request('POST', '/api/v1/user/', {
        body: { orgUserId: 'no-auth', kyc: true, tnc: true },
        headers: {
          'idempotency-key': key,
          'x-api-key': org.apiKey,
          'x-timestamp': '1',
          'x-signature': 'bad',
        },
      });
      expect(response.status).toBe(401);
      expect(await api.rows('SELECT 1 FROM idempotency_keys WHERE key = $1', [key])).toEqual([]);
    });

    it('gives the key up after a 400, so that the corrected request may use it', async () => {
      const key = randomUUID();
      const bad = await org.signed('POST', '/api/v1/user/', {
        body: { orgUserId: 'corrected', kyc: 'yes', tnc: true },
        headers: { 'idempotency-key': key },
      });
      expect(bad.status).toBe(400);
      expect(await keyRow(org, key)).toBeUndefined();
      expect((await createUser(org, key, 'corrected')).status).toBe(200);
    });

    it('is not taken on an operator route, which ignores the header', async () => {
      const key = randomUUID();
      const response = await api.admin('PUT', '/api/v1/admin/prices/ETH_EUR/', {
        body: { price: 2500 },
        headers: { 'idempotency-key': key },
      });
      expect(response.status).toBe(200);
      expect(await api.rows('SELECT 1 FROM idempotency_keys WHERE key = $1', [key])).toEqual([]);
    });
  });

  describe('the header', () => {
    const send = (value: string): Promise<TestResponse> => createUser(org, value, `h-${randomUUID()}`);
    const rule = 'Bad Request: Idempotency-Key must be 1 to 255 visible ASCII characters, sent once';

    it.each([
      ['empty', ''],
      ['256 characters', 'k'.repeat(256)],
      ['with a space', 'two words'],
      ['not ASCII', 'clé'],
    ])('refuses a key %s with a 400 naming the header, writing nothing', async (_, value) => {
      const before = await counts();
      const response = await send(value);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe(rule);
      expect(await counts()).toEqual(before);
    });

    it('takes 255 characters, and the quoted form of the draft as the same key', async () => {
      expect((await send('k'.repeat(255))).status).toBe(200);
      const key = randomUUID();
      const first = await createUser(org, `"${key}"`, 'quoted');
      const again = await createUser(org, key, 'quoted');
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
    });

    it('is not part of the signature: the request is signed without it, and the key changes nothing signed', async () => {
      const body = JSON.stringify({ orgUserId: 'signed-without-key', kyc: true, tnc: true });
      const headers = signedRequestHeaders(
        { path: '/api/v1/user/', body },
        { apiKey: org.apiKey, apiSecret: org.apiSecret },
      );
      const response = await api.request('POST', '/api/v1/user/', {
        rawBody: body,
        headers: { ...headers, 'idempotency-key': randomUUID() },
      });
      expect(response.status).toBe(200);
    });
  });
});
