// Operators sign in as people: enrolment (password + TOTP), console sessions (cookie, CSRF, idle and
// absolute expiry, sign-out), step-up with a fresh code, and the sign-in throttle; secrets never logged.
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';

import { ApiFixture } from './support/app-fixture.js';
import type { EnrolledOperator } from './support/enrolled-operator.js';

describe('operator sign-in', () => {
  let api: ApiFixture;
  let log = '';
  beforeAll(async () => {
    const logTo = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    // The tests call as a reverse proxy would, which may say the scheme and host (X-Forwarded-Proto, -Host).
    api = await ApiFixture.start({ LOG_LEVEL: 'info', TRUST_PROXY: '127.0.0.1' }, { logTo });
  });
  afterAll(() => api.close());

  const session = (cookie: { cookie: string; csrfToken: string }, csrf = true) => ({
    cookie: cookie.cookie,
    ...(csrf ? { 'x-csrf-token': cookie.csrfToken } : {}),
  });

  it('enrols with the setup token: a password under argon2id, a sealed TOTP secret, confirmed by a code', async () => {
    const created = await api.admin<{ id: string; setupToken: string }>('POST', '/api/v1/admin/operators', {
      body: { email: 'nia@ops.test', name: 'Nia', role: 'KYC_REVIEWER' },
    });
    const { setupToken, id } = created.body.data!;
    const short = await api.request('POST', '/api/v1/admin/enrolment', {
      body: { setupToken, password: 'short' },
    });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('Bad Request: password must be 12 to 256 characters');

    const enrolled = await api.request<{ email: string; totpSecret: string; otpauthUri: string }>(
      'POST',
      '/api/v1/admin/enrolment',
      { body: { setupToken, password: 'correct horse battery staple' } },
    );
    expect(enrolled.status).toBe(200);
    expect(enrolled.headers.get('cache-control')).toBe('no-store');
    const { totpSecret, otpauthUri } = enrolled.body.data!;
    expect(otpauthUri).toBe(
      `otpauth://totp/svc%20platform:nia%40ops.test?secret=${totpSecret}&issuer=svc%20platform`,
    );
    const [row] = await api.rows<{
      password_hash: string;
      totp_secret_ciphertext: string;
      totp_confirmed_at: null;
    }>('SELECT password_hash, totp_secret_ciphertext, totp_confirmed_at FROM operators WHERE id = $1', [id]);
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.totp_secret_ciphertext).toMatch(/^v1\./);
    expect(row!.totp_secret_ciphertext).not.toContain(totpSecret);
    expect(row!.totp_confirmed_at).toBeNull();

    const wrong = await api.request('POST', '/api/v1/admin/enrolment/confirm', {
      body: { setupToken, code: '000000' },
    });
    expect(wrong.status).toBe(400);
    const { generate } = await import('otplib');
    const confirmed = await api.request<{ status: string }>('POST', '/api/v1/admin/enrolment/confirm', {
      body: { setupToken, code: await generate({ secret: totpSecret }) },
    });
    expect(confirmed.body.data).toMatchObject({ status: 'ACTIVE' });
    const spent = await api.request('POST', '/api/v1/admin/enrolment', {
      body: { setupToken, password: 'another long password' },
    });
    expect(spent.status).toBe(404);
    expect(spent.body.error).toBe(
      'Not Found: setupToken is unknown, used or expired: ask an ADMIN to reset your enrolment',
    );
  });

  describe('with an enrolled operator', () => {
    let ann: EnrolledOperator;
    beforeAll(async () => {
      ann = await api.enrolOperator('ADMIN', 'ann@ops.test');
    });

    it('refuses a wrong password, a wrong code, an unknown e-mail alike', async () => {
      const attempts = [
        { email: ann.email, password: `${ann.password}x`, code: '123456' },
        { email: ann.email, password: ann.password, code: '123456' },
        { email: 'nobody@ops.test', password: ann.password, code: '123456' },
      ];
      for (const body of attempts) {
        const response = await api.request('POST', '/api/v1/admin/session', { body });
        expect(response.status).toBe(401);
        expect(response.body.error).toBe('Unauthorized: the e-mail, password or code is wrong');
        expect(response.headers.get('set-cookie')).toBeNull();
      }
    });

    // The cookie's attributes and the CSRF scheme, the dashboard's too: security/session-cookie.security.spec.ts.
    it('signs in: a session cookie, a CSRF token for writes', async () => {
      const response = await api.request<{ csrfToken: string; via: string; stepUpUntil: string }>(
        'POST',
        '/api/v1/admin/session',
        { body: { email: 'ANN@ops.test', password: ann.password, code: await ann.code() } },
      );
      expect(response.status).toBe(200);
      const cookie = response.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^svc_operator_session=ses_[A-Za-z0-9_-]{43};/);
      const value = /=([^;]+)/.exec(cookie)![1]!;
      expect(
        await api.rows('SELECT method FROM operator_sessions WHERE token_hash = $1', [
          createHash('sha256').update(value).digest('hex'),
        ]),
      ).toEqual([{ method: 'password' }]);
      expect(response.body.data).toMatchObject({ via: 'session', stepUpUntil: expect.any(String) as string });

      const held = { cookie: `svc_operator_session=${value}`, csrfToken: response.body.data!.csrfToken };
      const me = await api.request<{ operator: { email: string }; csrfToken: string }>(
        'GET',
        '/api/v1/admin/session',
        {
          headers: session(held, false),
        },
      );
      // A fresh token of the same session (salted each time it is given): either one works.
      expect(me.body.data).toMatchObject({ operator: { email: 'ann@ops.test' } });
      expect(me.body.data!.csrfToken).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(me.body.data!.csrfToken).not.toBe(held.csrfToken);
      const fresh = { ...held, csrfToken: me.body.data!.csrfToken };

      // Writes with the cookie need the CSRF token; the sign-in's code counts as step-up.
      const org = await api.createOrg();
      const path = `/api/v1/admin/orgs/${org.orgId}/api-keys`;
      const forged = await api.request('POST', path, { body: {}, headers: session(held, false) });
      expect(forged.status).toBe(403);
      expect(forged.body.error).toBe(
        "Forbidden: a request with the session cookie must send the session's X-CSRF-Token",
      );
      const wrongCsrf = await api.request('POST', path, {
        body: {},
        headers: { cookie: held.cookie, 'x-csrf-token': `${held.csrfToken}x` },
      });
      expect(wrongCsrf.status).toBe(403);
      const issued = await api.request('POST', path, { body: {}, headers: session(fresh) });
      expect(issued.status).toBe(200);
      expect(
        await api.rows(
          "SELECT actor, operator_id FROM audit_log WHERE action = 'api-key.issue' AND org_id = $1 AND operator_id IS NOT NULL",
          [org.orgId],
        ),
      ).toEqual([{ actor: 'ann@ops.test', operator_id: ann.id }]);
    });

    it('ends a session after its idle time, at its absolute end, and at sign-out', async () => {
      const check = (held: { cookie: string; csrfToken: string }) =>
        api.request('GET', '/api/v1/admin/session', { headers: session(held, false) });
      const idle = await api.signIn(ann);
      expect((await check(idle)).status).toBe(200);
      await api.rows("UPDATE operator_sessions SET last_seen_at = now() - interval '31 minutes'");
      const ended = await check(idle);
      expect(ended.status).toBe(401);
      expect(ended.body.error).toBe('Unauthorized: the console session has ended: sign in again');

      const old = await api.signIn(ann);
      await api.rows("UPDATE operator_sessions SET expires_at = now() - interval '1 second'");
      expect((await check(old)).status).toBe(401);

      const out = await api.signIn(ann);
      const signedOut = await api.request('DELETE', '/api/v1/admin/session', { headers: session(out) });
      expect(signedOut.status).toBe(200);
      expect(signedOut.headers.get('set-cookie')).toMatch(/^svc_operator_session=; Max-Age=0;/);
      expect((await check(out)).status).toBe(401);
    });

    it('steps a personal token up with a fresh code, each code once', async () => {
      const held = await api.signIn(ann);
      const issued = await api.request<{ token: string }>('POST', '/api/v1/admin/tokens', {
        body: { label: 'cli' },
        headers: session(held),
      });
      const token = { token: issued.body.data!.token };
      const org = await api.createOrg();
      const issue = () =>
        api.admin('POST', `/api/v1/admin/orgs/${org.orgId}/oauth-clients`, {
          operator: token,
          body: { scopes: 'BASE_MODULE:READ' },
        });
      expect((await issue()).status).toBe(401);
      const code = await ann.code();
      const stepped = await api.admin<{ stepUpUntil: string }>('POST', '/api/v1/admin/session/step-up', {
        operator: token,
        body: { code },
      });
      expect(stepped.status).toBe(200);
      const minutes = (Date.parse(stepped.body.data!.stepUpUntil) - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(59);
      expect((await issue()).status).toBe(200);
      const replay = await api.admin('POST', '/api/v1/admin/session/step-up', {
        operator: token,
        body: { code },
      });
      expect(replay.status).toBe(401);
      expect(replay.body.error).toBe('Unauthorized: the code is wrong or was already used');
    });

    it('logs no password, code, cookie, CSRF token or TOTP secret', () => {
      expect(log).toContain('"url":"/api/v1/admin/session"');
      for (const secret of [ann.password, ann.totpSecret, 'ses_', 'op_']) expect(log).not.toContain(secret);
    });
  });
});

describe('the sign-in throttle', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await ApiFixture.start({ SIGN_IN_ACCOUNT_LIMIT: '3', SIGN_IN_ADDRESS_LIMIT: '12' });
  });
  afterAll(() => api.close());

  it("refuses an address after an account's failures from it, even the right password, with Retry-After", async () => {
    const bea = await api.enrolOperator('SUPPORT');
    for (let n = 0; n < 3; n++) {
      const wrong = await api.request('POST', '/api/v1/admin/session', {
        body: { email: bea.email, password: 'wrong password!!', code: '000000' },
      });
      expect(wrong.status).toBe(401);
    }
    const locked = await api.request('POST', '/api/v1/admin/session', {
      body: { email: bea.email, password: bea.password, code: await bea.code() },
    });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(locked.body.error).toMatch(/^Too Many Requests: retry in \d+ s$/);
    await api.rows('DELETE FROM attempt_counters WHERE key = $1', [`account-address:${bea.email}|127.0.0.1`]);
    expect(
      (
        await api.request('POST', '/api/v1/admin/session', {
          body: { email: bea.email, password: bea.password, code: await bea.code() },
        })
      ).status,
    ).toBe(200);
  });

  it('limits the attempts of one address across accounts', async () => {
    await api.rows('DELETE FROM attempt_counters');
    const statuses: number[] = [];
    for (let n = 0; n < 13; n++) {
      const response = await api.request('POST', '/api/v1/admin/session', {
        body: { email: `guess-${n}@ops.test`, password: 'guessing password', code: '000000' },
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 12).every((status) => status === 401)).toBe(true);
    expect(statuses[12]).toBe(429);
  });
});
