// The throttles under attack (docs/operators.md#sign-in, docs/decisions.md, "Authentication: throttles"): 200 guesses at
// once are checked no more often than the limit allows, on one instance or two, and the counters stored say
// so; an attacker's failures from one address never lock the owner out at another, nor do replayed codes;
// counters whose window has passed are swept, so guesses from many addresses leave no lasting rows.
// Each source address is a real one: Linux routes all of 127.0.0.0/8 to the loopback interface, so a client
// socket bound to 127.0.0.2 reaches the api as 127.0.0.2, with no forwarded header.
import { request as httpRequest } from 'node:http';

import {
  AttemptCountersSweeper,
  longestThrottleWindowMs,
} from '../../src/database/attempt-counters.sweeper.js';
import { ApiFixture } from '../support/app-fixture.js';
import type { EnrolledOperator } from '../support/enrolled-operator.js';

const ATTACKER = '127.0.0.2';
const OWNER = '127.0.0.3';
const AT_ONCE = 200;

interface Answer {
  readonly status: number;
  readonly retryAfter: number | undefined;
  readonly body: { error?: string | null; data?: unknown };
}

/** A request from the socket address `source`. */
function from(
  source: string,
  api: ApiFixture,
  method: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${api.baseUrl}${path}`,
      {
        method,
        localAddress: source,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const retryAfter = response.headers['retry-after'];
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: retryAfter === undefined ? undefined : Number(retryAfter),
            body: JSON.parse(text) as Answer['body'],
          });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const signIn = (source: string, api: ApiFixture, email: string, password: string, code: string) =>
  from(source, api, 'POST', '/api/v1/admin/session', JSON.stringify({ email, password, code }));

/** How many answers had each status, e.g. { 401: 5, 429: 195 }. */
function tally(answers: readonly Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** A six-digit code other than `code`. */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('the operator throttles under concurrency and attack', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await ApiFixture.start();
  });
  afterAll(() => api.close());
  beforeEach(() => api.rows('DELETE FROM attempt_counters'));

  const counter = async (key: string) =>
    (await api.rows<{ attempts: number }>('SELECT attempts FROM attempt_counters WHERE key = $1', [key]))[0]
      ?.attempts ?? 0;
  const limit = () => api.config.operators.signIn.accountLimit;

  it('checks at most the limit of 200 wrong passwords at once, and the owner elsewhere signs in meanwhile', async () => {
    const owner = await api.enrolOperator('ADMIN');
    const attack = Promise.all(
      Array.from({ length: AT_ONCE }, () => signIn(ATTACKER, api, owner.email, 'a wrong password', '123456')),
    );
    const during = await signIn(OWNER, api, owner.email, owner.password, await owner.code());
    const answers = await attack;

    expect(during.status).toBe(200);
    const counts = tally(answers);
    expect(counts[401]).toBeGreaterThanOrEqual(1);
    expect(counts[401]).toBeLessThanOrEqual(limit());
    expect(counts[401]! + counts[429]!).toBe(AT_ONCE);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(refused.retryAfter).toBeGreaterThan(0);
    }
    // What was stored: the attacker's address spent its budget for this account; the owner's has none left
    // over, since the owner's success cleared it.
    expect(await counter(`account-address:${owner.email}|${ATTACKER}`)).toBe(counts[401]);
    expect(await counter(`account-address:${owner.email}|${OWNER}`)).toBe(0);

    // After the attack too: the right password and code from the owner's address pass, from the
    // attacker's they are refused until its window ends.
    expect((await signIn(OWNER, api, owner.email, owner.password, await owner.code())).status).toBe(200);
    const fromAttacker = await signIn(ATTACKER, api, owner.email, owner.password, await owner.code());
    expect(fromAttacker.status).toBe(429);
    expect(fromAttacker.retryAfter).toBeGreaterThan(800);
  });

  it('checks at most the limit of 200 wrong codes with the right password at once', async () => {
    const owner = await api.enrolOperator('SUPPORT');
    const code = await owner.code();
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, () =>
        signIn(ATTACKER, api, owner.email, owner.password, otherThan(code)),
      ),
    );
    const counts = tally(answers);
    expect(counts[401]).toBeLessThanOrEqual(limit());
    expect(counts[401]! + counts[429]!).toBe(AT_ONCE);
    expect(await counter(`account-address:${owner.email}|${ATTACKER}`)).toBe(counts[401]);
    expect((await signIn(OWNER, api, owner.email, owner.password, code)).status).toBe(200);
  });

  describe('step-up', () => {
    let owner: EnrolledOperator;
    let session: Record<string, string>;
    beforeEach(async () => {
      owner = await api.enrolOperator('ADMIN');
      const signedIn = await api.signIn(owner);
      session = { cookie: signedIn.cookie, 'x-csrf-token': signedIn.csrfToken };
    });
    const stepUp = (source: string, code: string) =>
      from(source, api, 'POST', '/api/v1/admin/session/step-up', JSON.stringify({ code }), session);

    it('checks at most the limit of 200 wrong codes at once', async () => {
      const code = await owner.code();
      const answers = await Promise.all(
        Array.from({ length: AT_ONCE }, () => stepUp(ATTACKER, otherThan(code))),
      );
      const counts = tally(answers);
      expect(counts[401]).toBeLessThanOrEqual(limit());
      expect(counts[401]! + counts[429]!).toBe(AT_ONCE);
      expect(await counter(`account-address:${owner.email}|${ATTACKER}`)).toBe(counts[401]);
      expect((await stepUp(OWNER, code)).status).toBe(200);
    });

    it('refuses a replayed code without counting it, so replays never lock the owner out', async () => {
      const code = await owner.code();
      expect((await stepUp(OWNER, code)).status).toBe(200);
      const checked = await counter(`account:${owner.email}`);
      for (let n = 0; n < limit() * 3; n++) {
        const replay = await stepUp(OWNER, code);
        expect(replay.status).toBe(401);
        expect(replay.body.error).toBe('Unauthorized: the code is wrong or was already used');
      }
      expect(await counter(`account-address:${owner.email}|${OWNER}`)).toBe(0);
      expect(await counter(`account:${owner.email}`)).toBe(checked);
      expect((await stepUp(OWNER, await owner.code())).status).toBe(200);
    });
  });

  it('refuses a replayed sign-in code without counting it', async () => {
    const owner = await api.enrolOperator('SUPPORT');
    const code = await owner.code();
    expect((await signIn(OWNER, api, owner.email, owner.password, code)).status).toBe(200);
    for (let n = 0; n < limit() * 2; n++) {
      expect((await signIn(OWNER, api, owner.email, owner.password, code)).status).toBe(401);
    }
    expect(await counter(`account-address:${owner.email}|${OWNER}`)).toBe(0);
    expect((await signIn(OWNER, api, owner.email, owner.password, await owner.code())).status).toBe(200);
  });

  it('slows the checks of one account from many addresses to its rate, without holding the owner back for the window', async () => {
    const owner = await api.enrolOperator('SUPPORT');
    const perMinute = api.config.operators.signIn.accountPerMinute;
    // Enough addresses, each within its own budget, to pass the account's rate for the minute.
    const sources = Array.from({ length: Math.ceil(perMinute / limit()) + 1 }, (_, n) => `127.0.1.${n + 1}`);
    const answers = await Promise.all(
      sources.flatMap((source) =>
        Array.from({ length: limit() }, () => signIn(source, api, owner.email, 'a wrong password', '123456')),
      ),
    );
    const counts = tally(answers);
    expect(counts[401]).toBe(perMinute);
    expect(await counter(`account:${owner.email}`)).toBe(perMinute);
    const slowed = answers.filter((answer) => answer.status === 429);
    expect(slowed.length).toBeGreaterThan(0);
    for (const answer of slowed) expect(answer.retryAfter).toBeLessThanOrEqual(60);
    // The addresses slowed by the account's rate kept the attempts it refused.
    const spent = await api.rows<{ attempts: number }>(
      "SELECT attempts FROM attempt_counters WHERE key LIKE 'account-address:%'",
    );
    expect(spent.reduce((sum, row) => sum + row.attempts, 0)).toBe(perMinute);
  });
});

describe('the token endpoint throttle under concurrency and attack', () => {
  let api: ApiFixture;
  let second: ApiFixture;
  beforeAll(async () => {
    api = await ApiFixture.start();
    second = await ApiFixture.start({}, { besides: api });
  });
  afterAll(async () => {
    await second.close();
    await api.close();
  });
  beforeEach(() => api.rows('DELETE FROM attempt_counters'));

  const token = (source: string, fixture: ApiFixture, clientId: string, clientSecret: string) =>
    from(
      source,
      fixture,
      'POST',
      '/api/v1/oauth/token',
      new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        scope: 'BASE_MODULE:READ',
      }).toString(),
      { 'content-type': 'application/x-www-form-urlencoded' },
    );

  it('checks at most the limit of 200 wrong secrets at once, over two instances', async () => {
    const org = await api.createOrg();
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, n) =>
        token(ATTACKER, n % 2 === 0 ? api : second, org.clientId, `sk_wrong-${n}`),
      ),
    );
    const counts = tally(answers);
    expect(counts[401]).toBeLessThanOrEqual(api.config.tokenRateLimitPerMinute);
    expect(counts[401]! + counts[429]!).toBe(AT_ONCE);
    const [row] = await api.rows<{ attempts: number }>(
      'SELECT attempts FROM attempt_counters WHERE key = $1',
      [`token-address:${ATTACKER}`],
    );
    expect(row?.attempts).toBe(counts[401]);
  });

  it('gives the right secret from a clean address a token after wrong ones from another', async () => {
    const org = await api.createOrg();
    const limit = api.config.tokenRateLimitPerMinute;
    const wrong: Answer[] = [];
    for (let n = 0; n < limit + 5; n++) wrong.push(await token(ATTACKER, api, org.clientId, 'sk_wrong'));
    expect(tally(wrong)).toEqual({ 401: limit, 429: 5 });
    const right = await token(OWNER, api, org.clientId, org.clientSecret);
    expect(right.status).toBe(200);
    expect(right.body.data).toMatchObject({ token_type: 'Bearer', scope: 'BASE_MODULE:READ' });
  });
});

describe('the throttles counters kept only for live windows', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await ApiFixture.start();
  });
  afterAll(() => api.close());

  it('sweeps every counter past the longest window, however many addresses left one, and keeps live ones', async () => {
    const windowMs = longestThrottleWindowMs(api.config);
    await api.rows(
      `INSERT INTO attempt_counters (key, window_start, attempts)
       SELECT 'address:10.0.' || (n / 256) || '.' || (n % 256),
              now() - $1 * interval '1 millisecond' - interval '1 second', 3
       FROM generate_series(0, 9999) AS n`,
      [windowMs],
    );
    await api.rows(
      `INSERT INTO attempt_counters (key, window_start, attempts)
       VALUES ('address:192.0.2.1', now(), 2),
              ('account:live@ops.test', now() - $1 * interval '1 millisecond' + interval '1 minute', 1)`,
      [windowMs],
    );

    await api.app.get(AttemptCountersSweeper).run();

    const left = await api.rows<{ key: string; attempts: number }>(
      'SELECT key, attempts FROM attempt_counters ORDER BY key',
    );
    expect(left).toEqual([
      { key: 'account:live@ops.test', attempts: 1 },
      { key: 'address:192.0.2.1', attempts: 2 },
    ]);
  });
});
