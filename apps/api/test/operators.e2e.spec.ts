// Operator accounts and personal tokens over HTTP: the ADMIN_TOKEN bootstrap of the first ADMIN, creating,
// changing and disabling operators, and personal tokens (shown once, hashed, expiring, revocable, last used).
import { createHash } from 'node:crypto';
import { join } from 'node:path';

import { ApiFixture, type TestOperator } from './support/app-fixture.js';

interface OperatorData {
  id: string;
  email: string;
  role: string;
  status: string;
  setupToken?: string;
}
interface TokenData {
  id: string;
  token?: string;
  label: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('bootstrapping the first ADMIN with ADMIN_TOKEN', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await ApiFixture.start({}, { withoutOperators: true });
  });
  afterAll(() => api.close());

  const bootstrap = (body: object) =>
    api.request<OperatorData>('POST', '/api/v1/admin/operators', {
      body,
      headers: { authorization: `Bearer ${api.config.adminToken!}` },
    });

  it('creates only an ADMIN, only once, and is refused everywhere else', async () => {
    const orgs = await api.request('GET', '/api/v1/admin/orgs', {
      headers: { authorization: `Bearer ${api.config.adminToken!}` },
    });
    expect(orgs.status).toBe(401);
    expect(orgs.body.error).toContain('ADMIN_TOKEN only bootstraps the first ADMIN');

    const notAdmin = await bootstrap({ email: 'ann@ops.example', name: 'Ann', role: 'SUPPORT' });
    expect(notAdmin.status).toBe(400);
    expect(notAdmin.body.error).toBe(
      'Bad Request: role must be ADMIN: ADMIN_TOKEN only creates the first ADMIN',
    );

    // Two at once: exactly one wins.
    const [a, b] = await Promise.all([
      bootstrap({ email: 'Ann@Ops.Example', name: 'Ann', role: 'ADMIN' }),
      bootstrap({ email: 'bob@ops.example', name: 'Bob', role: 'ADMIN' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 401]);
    const created = (a.status === 200 ? a : b).body.data!;
    expect(created).toMatchObject({ role: 'ADMIN', status: 'PENDING' });
    expect(created.setupToken).toMatch(/^setup_[A-Za-z0-9_-]{43}$/);
    const rows = await api.rows<{ email: string; setup_token_hash: string }>(
      'SELECT email, setup_token_hash FROM operators',
    );
    expect(rows).toEqual([{ email: created.email, setup_token_hash: sha256(created.setupToken!) }]);
    expect(
      await api.rows("SELECT actor, operator_id, details->>'bootstrap' AS bootstrap FROM audit_log"),
    ).toEqual([{ actor: 'system:ADMIN_TOKEN bootstrap', operator_id: null, bootstrap: 'true' }]);

    const again = await bootstrap({ email: 'carl@ops.example', name: 'Carl', role: 'ADMIN' });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe(
      'Unauthorized: ADMIN_TOKEN is refused: an ADMIN exists; sign in, or use a personal token (docs/operators.md)',
    );
  });
});

describe('scripts/bootstrap-operator.mjs (the benchmarks bootstrap their operator with it)', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await ApiFixture.start({}, { withoutOperators: true });
  });
  afterAll(() => api.close());

  it('bootstraps, enrols and signs in an ADMIN over HTTP; its stepped-up token issues credentials', async () => {
    const script = join(__dirname, '..', '..', '..', 'scripts', 'bootstrap-operator.mjs');
    const { bootstrapOperator } = (await import(script)) as {
      bootstrapOperator: (url: string, token: string) => Promise<{ operatorToken: string; email: string }>;
    };
    const { operatorToken, email } = await bootstrapOperator(api.baseUrl, api.config.adminToken!);
    expect(email).toBe('admin@localhost');
    const org = await api.createOrg();
    const issued = await api.admin('POST', `/api/v1/admin/orgs/${org.orgId}/api-keys`, {
      operator: { token: operatorToken },
      body: {},
    });
    expect(issued.status).toBe(200);
    expect(await api.rows('SELECT email, totp_confirmed_at IS NOT NULL AS enrolled FROM operators')).toEqual([
      { email: 'admin@localhost', enrolled: true },
    ]);
  }, 60_000);
});

describe('operator accounts and personal tokens', () => {
  let api: ApiFixture;
  let support: TestOperator;
  beforeAll(async () => {
    api = await ApiFixture.start();
    support = await api.createOperator('SUPPORT', { stepUp: true });
  });
  afterAll(() => api.close());

  it('an ADMIN creates an operator: pending, e-mail lowercased, a setup token shown once; a second is a 409', async () => {
    const response = await api.admin<OperatorData>('POST', '/api/v1/admin/operators', {
      body: { email: 'Kim@Ops.Example', name: 'Kim', role: 'KYC_REVIEWER' },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      email: 'kim@ops.example',
      role: 'KYC_REVIEWER',
      status: 'PENDING',
    });
    const again = await api.admin('POST', '/api/v1/admin/operators', {
      body: { email: 'kim@ops.example', name: 'Kim', role: 'SUPPORT' },
    });
    expect(again.status).toBe(409);
    const listed = await api.admin<{ items: OperatorData[] }>('GET', '/api/v1/admin/operators');
    expect(listed.body.data!.items.map((item) => item.email)).toContain('kim@ops.example');
    expect(JSON.stringify(listed.body)).not.toContain('setup');
  });

  it.each([
    [{ email: 'not-an-address', name: 'X', role: 'SUPPORT' }, 'email must be an e-mail address'],
    [{ email: 'x@ops.example', name: ' ', role: 'SUPPORT' }, 'name must be 1 to 100 characters'],
    [
      { email: 'x@ops.example', name: 'X', role: 'ROOT' },
      'role must be one of ADMIN, KYC_REVIEWER, TRADING_OPS, SUPPORT',
    ],
  ])('refuses %j with a 400 naming the field, nothing stored', async (body, message) => {
    const before = await api.rows('SELECT id FROM operators');
    const response = await api.admin('POST', '/api/v1/admin/operators', { body });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(message);
    expect(await api.rows('SELECT id FROM operators')).toEqual(before);
  });

  it('changes a role (audited, effective on the next request); the last ADMIN cannot be demoted or disabled', async () => {
    const ops = await api.createOperator('SUPPORT');
    expect(
      (await api.admin('PUT', '/api/v1/admin/prices/ETH_EUR', { operator: ops, body: { price: 1 } })).status,
    ).toBe(403);
    const changed = await api.admin<OperatorData>('PATCH', `/api/v1/admin/operators/${ops.id}`, {
      body: { role: 'TRADING_OPS' },
    });
    expect(changed.body.data).toMatchObject({ role: 'TRADING_OPS' });
    expect(
      (await api.admin('PUT', '/api/v1/admin/prices/ETH_EUR', { operator: ops, body: { price: 1 } })).status,
    ).toBe(200);
    expect(
      await api.rows(
        "SELECT actor, operator_id, details FROM audit_log WHERE action = 'operator.update' AND details->>'operatorId' = $1",
        [ops.id],
      ),
    ).toEqual([
      {
        actor: 'admin@ops.test',
        operator_id: api.adminOperator.id,
        details: {
          operatorId: ops.id,
          email: ops.email,
          changes: { role: { from: 'SUPPORT', to: 'TRADING_OPS' } },
        },
      },
    ]);

    const self = api.adminOperator.id;
    for (const [method, path, body] of [
      ['PATCH', `/api/v1/admin/operators/${self}`, { role: 'SUPPORT' }],
      ['POST', `/api/v1/admin/operators/${self}/disable`, undefined],
    ] as const) {
      const refused = await api.admin(method, path, body ? { body } : {});
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe(
        'Conflict: admin@ops.test is the last ADMIN: make another operator ADMIN first',
      );
    }
    expect((await api.rows('SELECT role, disabled_at FROM operators WHERE id = $1', [self]))[0]).toEqual({
      role: 'ADMIN',
      disabled_at: null,
    });
  });

  it('issues a personal token: shown once, stored as its SHA-256, expiring, last use recorded', async () => {
    const issued = await api.admin<TokenData>('POST', '/api/v1/admin/tokens', {
      operator: support,
      body: { label: 'laptop CLI', expiresInDays: 7 },
    });
    expect(issued.status).toBe(200);
    const token = issued.body.data!;
    expect(token.token).toMatch(/^op_[A-Za-z0-9_-]{43}$/);
    const days = (Date.parse(token.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const [row] = await api.rows<{ token_hash: string; operator_id: string }>(
      'SELECT token_hash, operator_id FROM operator_tokens WHERE id = $1',
      [token.id],
    );
    expect(row).toEqual({ token_hash: sha256(token.token!), operator_id: support.id });
    expect(JSON.stringify(await api.rows('SELECT * FROM operator_tokens'))).not.toContain(token.token);

    const listed = await api.admin<{ items: TokenData[] }>('GET', '/api/v1/admin/tokens', {
      operator: { token: token.token! },
    });
    const mine = listed.body.data!.items.find((item) => item.id === token.id)!;
    expect(mine).toMatchObject({
      label: 'laptop CLI',
      revokedAt: null,
      lastUsedAt: expect.any(String) as string,
    });
    expect(mine).not.toHaveProperty('token');
    // Only the caller's own tokens.
    expect(listed.body.data!.items.every((item) => item.id !== api.adminOperator.tokenId)).toBe(true);

    const tooLong = await api.admin('POST', '/api/v1/admin/tokens', {
      operator: support,
      body: { expiresInDays: 91 },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toBe(
      'Bad Request: expiresInDays must be at most 90 (OPERATOR_TOKEN_MAX_DAYS)',
    );
    // Far over any limit: the same rule, the configured one, not the most a configuration may allow.
    const tokensBefore = await api.rows('SELECT id FROM operator_tokens');
    const wayTooLong = await api.admin('POST', '/api/v1/admin/tokens', {
      operator: support,
      body: { expiresInDays: 1e9 },
    });
    expect(wayTooLong.status).toBe(400);
    expect(wayTooLong.body.error).toBe(
      'Bad Request: expiresInDays must be at most 90 (OPERATOR_TOKEN_MAX_DAYS)',
    );
    expect(await api.rows('SELECT id FROM operator_tokens')).toEqual(tokensBefore);

    await api.rows("UPDATE operator_tokens SET expires_at = now() - interval '1 second' WHERE id = $1", [
      token.id,
    ]);
    const expired = await api.admin('GET', '/api/v1/admin/tokens', { operator: { token: token.token! } });
    expect(expired.status).toBe(401);
  });

  it("an operator revokes their own token, not another's (404); an ADMIN revokes anyone's", async () => {
    const other = await api.createOperator('KYC_REVIEWER');
    const refused = await api.admin('POST', `/api/v1/admin/tokens/${other.tokenId}/revoke`, {
      operator: support,
    });
    expect(refused.status).toBe(404);
    expect(
      (await api.rows('SELECT revoked_at FROM operator_tokens WHERE id = $1', [other.tokenId]))[0],
    ).toEqual({
      revoked_at: null,
    });
    const own = await api.createOperator('SUPPORT');
    const revoked = await api.admin<TokenData>('POST', `/api/v1/admin/tokens/${own.tokenId}/revoke`, {
      operator: own,
    });
    expect(revoked.body.data!.revokedAt).not.toBeNull();
    expect((await api.admin('GET', '/api/v1/admin/tokens', { operator: own })).status).toBe(401);
    expect((await api.admin('POST', `/api/v1/admin/tokens/${other.tokenId}/revoke`)).status).toBe(200);
    expect((await api.admin('GET', '/api/v1/admin/tokens', { operator: other })).status).toBe(401);
  });

  it('disabling an operator ends their tokens; a reset answers a new setup token and ends them too', async () => {
    const kim = await api.createOperator('KYC_REVIEWER');
    const reset = await api.admin<OperatorData>('POST', `/api/v1/admin/operators/${kim.id}/reset`);
    expect(reset.body.data!.setupToken).toMatch(/^setup_/);
    expect((await api.admin('GET', '/api/v1/admin/tokens', { operator: kim })).status).toBe(401);

    const lee = await api.createOperator('SUPPORT');
    const disabled = await api.admin<OperatorData>('POST', `/api/v1/admin/operators/${lee.id}/disable`);
    expect(disabled.body.data).toMatchObject({ status: 'DISABLED' });
    expect((await api.admin('GET', '/api/v1/admin/tokens', { operator: lee })).status).toBe(401);
    const count = await api.rows<{ n: string }>(
      'SELECT count(*) AS n FROM operator_tokens WHERE operator_id = $1 AND revoked_at IS NULL',
      [lee.id],
    );
    expect(count[0]!.n).toBe('0');
  });
});
