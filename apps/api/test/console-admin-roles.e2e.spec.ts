// The console's administration pages and forms by role (docs/console.md#the-administration-sections), over
// HTTP with each role's signed-in session and its CSRF token: every page (GET) and every form (POST) of the
// organisations, prices, notices, webhooks, audit and operators sections, allowed to the roles holding the
// admin route's role (200 or 303) and refused to the others with a 403 page naming the role, and nothing
// written; a form without its CSRF token is refused and writes nothing.
import { randomBytes } from 'node:crypto';

import { grantsRole, type OperatorRole } from '../src/auth/roles.js';
import { ApiFixture } from './support/app-fixture.js';
import { ConsoleClient } from './support/console-client.js';

jest.setTimeout(120_000);

const ROLES: readonly OperatorRole[] = ['ADMIN', 'KYC_REVIEWER', 'TRADING_OPS', 'SUPPORT'];

interface Target {
  readonly path: string;
  readonly fields?: Record<string, string>;
}

interface Case {
  readonly name: string;
  readonly role: OperatorRole;
  readonly method: 'GET' | 'POST';
  /** Makes what the request acts on; answers its path and form fields. */
  readonly prepare: () => Target | Promise<Target>;
}

describe('the console administration by role', () => {
  let api: ApiFixture;
  const clients = new Map<OperatorRole, ConsoleClient>();
  let orgId: number;

  beforeAll(async () => {
    api = await ApiFixture.start();
    for (const role of ROLES) {
      clients.set(role, await ConsoleClient.signIn(api, await api.enrolOperator(role)));
    }
    ({ orgId } = await api.createOrg({ name: 'Roles Org' }));
  });

  afterAll(async () => {
    await api.close();
  });

  const unique = () => randomBytes(3).toString('hex');
  const freshOrg = async () => (await api.createOrg()).orgId;
  const freshOperator = async () => (await api.createOperator('SUPPORT')).id;
  const liveKey = async (org: number) =>
    (
      await api.rows<{ id: string }>('SELECT id FROM api_keys WHERE org_id = $1 AND revoked_at IS NULL', [
        org,
      ])
    )[0]!.id;
  const liveClient = async (org: number) =>
    (
      await api.rows<{ id: string }>(
        'SELECT id FROM oauth_clients WHERE org_id = $1 AND revoked_at IS NULL',
        [org],
      )
    )[0]!.id;

  const CASES: readonly Case[] = [
    { name: 'orgs list', role: 'SUPPORT', method: 'GET', prepare: () => ({ path: '/console/orgs' }) },
    {
      name: 'org page',
      role: 'SUPPORT',
      method: 'GET',
      prepare: () => ({ path: `/console/orgs/${orgId}` }),
    },
    {
      name: 'new org page',
      role: 'ADMIN',
      method: 'GET',
      prepare: () => ({ path: '/console/orgs/new' }),
    },
    {
      name: 'create org',
      role: 'ADMIN',
      method: 'POST',
      prepare: () => ({
        path: '/console/orgs',
        fields: { name: `Org ${unique()}`, kycDomain: 'example.com', plan: 'STANDARD', supportEmails: '' },
      }),
    },
    {
      name: 'update org',
      role: 'ADMIN',
      method: 'POST',
      prepare: () => ({
        path: `/console/orgs/${orgId}`,
        fields: {
          name: `Renamed ${unique()}`,
          kycDomain: 'example.com',
          plan: 'ENTERPRISE',
          supportEmails: '',
        },
      }),
    },
    {
      name: 'preview policy',
      role: 'TRADING_OPS',
      method: 'POST',
      prepare: () => ({
        path: `/console/orgs/${orgId}/policy/preview`,
        fields: { quoteLimit: 'EUR 10' },
      }),
    },
    {
      name: 'save policy',
      role: 'TRADING_OPS',
      method: 'POST',
      prepare: () => ({
        path: `/console/orgs/${orgId}/policy`,
        fields: { quoteLimit: `EUR ${1000 + Math.floor(Math.random() * 1000)}` },
      }),
    },
    {
      name: 'issue api key',
      role: 'ADMIN',
      method: 'POST',
      prepare: () => ({ path: `/console/orgs/${orgId}/api-keys`, fields: { label: 'role test' } }),
    },
    {
      name: 'revoke api key',
      role: 'ADMIN',
      method: 'POST',
      prepare: async () => {
        const org = await freshOrg();
        return { path: `/console/orgs/${org}/api-keys/${await liveKey(org)}/revoke` };
      },
    },
    {
      name: 'issue oauth client',
      role: 'ADMIN',
      method: 'POST',
      prepare: () => ({
        path: `/console/orgs/${orgId}/oauth-clients`,
        fields: { scopes: 'BASE_MODULE:READ', label: 'role test' },
      }),
    },
    {
      name: 'revoke oauth client',
      role: 'ADMIN',
      method: 'POST',
      prepare: async () => {
        const org = await freshOrg();
        return { path: `/console/orgs/${org}/oauth-clients/${await liveClient(org)}/revoke` };
      },
    },
    { name: 'prices', role: 'SUPPORT', method: 'GET', prepare: () => ({ path: '/console/prices' }) },
    {
      name: 'set price',
      role: 'TRADING_OPS',
      method: 'POST',
      prepare: () => ({
        path: '/console/prices',
        fields: { symbol: 'BTC_EUR', price: '50000.12345678' },
      }),
    },
    { name: 'notices', role: 'SUPPORT', method: 'GET', prepare: () => ({ path: '/console/notices' }) },
    {
      name: 'publish notice',
      role: 'TRADING_OPS',
      method: 'POST',
      prepare: () => ({
        path: '/console/notices',
        fields: { event: 'MAINTENANCE_ALERTS', entity: 'platform', message: 'Maintenance tonight' },
      }),
    },
    {
      name: 'webhooks',
      role: 'SUPPORT',
      method: 'GET',
      prepare: () => ({ path: '/console/webhooks' }),
    },
    { name: 'audit', role: 'SUPPORT', method: 'GET', prepare: () => ({ path: '/console/audit' }) },
    {
      name: 'operators',
      role: 'ADMIN',
      method: 'GET',
      prepare: () => ({ path: '/console/operators' }),
    },
    {
      name: 'create operator',
      role: 'ADMIN',
      method: 'POST',
      prepare: () => ({
        path: '/console/operators',
        fields: { email: `new-${unique()}@ops.test`, name: 'New', role: 'SUPPORT' },
      }),
    },
    {
      name: 'change role',
      role: 'ADMIN',
      method: 'POST',
      prepare: async () => ({
        path: `/console/operators/${await freshOperator()}/role`,
        fields: { role: 'TRADING_OPS' },
      }),
    },
    {
      name: 'disable operator',
      role: 'ADMIN',
      method: 'POST',
      prepare: async () => ({ path: `/console/operators/${await freshOperator()}/disable` }),
    },
    {
      name: 'reset operator',
      role: 'ADMIN',
      method: 'POST',
      prepare: async () => ({ path: `/console/operators/${await freshOperator()}/reset` }),
    },
  ];

  /** What any console write changes: the audit log (every write is audited in its transaction) and more. */
  const written = async () =>
    (
      await api.rows<Record<string, string>>(
        `SELECT (SELECT count(*) FROM audit_log) AS audit, (SELECT count(*) FROM events) AS events,
                (SELECT count(*) FROM organisations) AS orgs, (SELECT count(*) FROM prices) AS prices,
                (SELECT count(*) FROM system_notices) AS notices, (SELECT count(*) FROM operators) AS operators,
                (SELECT count(*) FROM api_keys WHERE revoked_at IS NULL) AS keys,
                (SELECT count(*) FROM oauth_clients WHERE revoked_at IS NULL) AS clients,
                (SELECT md5(string_agg(policy::text || name, ',' ORDER BY id)) FROM organisations) AS org_fields,
                (SELECT md5(string_agg(role, ',' ORDER BY id)) FROM operators) AS roles`,
      )
    )[0];

  const table = ROLES.flatMap((role) => CASES.map((c) => [role, c] as const));

  it.each(table.map(([role, c]) => [role, c.method, c.name, c] as const))(
    '%s: %s %s',
    async (role, method, _name, c) => {
      const client = clients.get(role)!;
      const { path, fields } = await c.prepare();
      const before = await written();
      const answer = method === 'GET' ? await client.get(path) : await client.post(path, fields);
      if (grantsRole(role, c.role)) {
        expect([path, answer.status]).toEqual([path, method === 'GET' ? 200 : expect.any(Number)]);
        expect([200, 303]).toContain(answer.status);
        if (method === 'POST' && !path.endsWith('/preview')) expect(await written()).not.toEqual(before);
      } else {
        expect([path, answer.status]).toEqual([path, 403]);
        expect(answer.html).toContain(`this needs the ${c.role} role`);
        expect(answer.html).toContain(`you are ${role}`);
        expect(await written()).toEqual(before);
      }
    },
  );

  it('shows each role only the sections it opens', async () => {
    const nav = async (role: OperatorRole) => {
      const html = (await clients.get(role)!.get('/console/')).html;
      const section = /<nav aria-label="Sections"[^]*?<\/nav>/.exec(html)?.[0] ?? '';
      return [...section.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
    };
    expect(await nav('ADMIN')).toContain('/console/operators');
    for (const role of ['KYC_REVIEWER', 'TRADING_OPS', 'SUPPORT'] as const) {
      const links = await nav(role);
      expect(links).not.toContain('/console/operators');
      expect(links).toEqual(expect.arrayContaining(['/console/orgs', '/console/prices', '/console/audit']));
    }
  });

  it('refuses every form without its CSRF token, and writes nothing', async () => {
    const admin = clients.get('ADMIN')!;
    for (const c of CASES.filter((each) => each.method === 'POST')) {
      const { path, fields } = await c.prepare();
      const before = await written();
      const answer = await admin.post(path, fields, { csrf: false });
      expect([path, answer.status]).toEqual([path, 403]);
      expect(answer.html).toContain('the form was not sent from this console (its CSRF token is missing');
      // What happened, not a role the operator lacks.
      expect(answer.html).not.toContain('Your role does not allow this');
      expect(await written()).toEqual(before);
    }
  });

  it('refuses a sign-in sent from another site, saying so, and starts no session', async () => {
    const operator = await api.enrolOperator('ADMIN');
    const sessions = async () =>
      api.rows('SELECT id FROM operator_sessions WHERE operator_id = $1', [operator.id]);
    const before = await sessions();
    const response = await fetch(`${api.baseUrl}/console/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: new URLSearchParams({
        email: operator.email,
        password: operator.password,
        code: await operator.code(),
      }).toString(),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
    const html = await response.text();
    expect(html).toContain('the sign-in was not sent from the console’s sign-in page');
    expect(html).not.toContain('Your role does not allow this');
    expect(await sessions()).toEqual(before);
  });

  it('asks sensitive forms for a fresh code once the step-up has lapsed, and acts with one', async () => {
    const operator = await api.enrolOperator('ADMIN');
    const client = await ConsoleClient.signIn(api, operator);
    await api.rows(
      "UPDATE operator_sessions SET second_factor_at = now() - interval '2 hours' WHERE operator_id = $1",
      [operator.id],
    );
    expect((await client.get(`/console/orgs/${orgId}`)).html).toContain('This action needs a fresh code');
    const before = await written();
    const refused = await client.post(`/console/orgs/${orgId}/api-keys`, { label: 'no code' });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('needs a fresh code');
    const wrong = await client.post(`/console/orgs/${orgId}/api-keys`, {
      label: 'wrong code',
      code: '000000',
    });
    expect(wrong.status).toBe(400);
    expect(await written()).toEqual(before);
    const issued = await client.post(`/console/orgs/${orgId}/api-keys`, {
      label: 'with code',
      code: await operator.code(),
    });
    expect(issued.status).toBe(200);
    expect(issued.html).toContain('sk_');
    const [key] = await api.rows<{ label: string }>(
      "SELECT label FROM api_keys WHERE org_id = $1 AND label = 'with code'",
      [orgId],
    );
    expect(key).toEqual({ label: 'with code' });
  });
  it("refuses a credential of one organisation through another's page, and writes nothing", async () => {
    const admin = clients.get('ADMIN')!;
    const owner = await freshOrg();
    const other = await freshOrg();
    const key = await liveKey(owner);
    const client = await liveClient(owner);
    const before = await written();
    const viaKey = await admin.post(`/console/orgs/${other}/api-keys/${key}/revoke`);
    const viaClient = await admin.post(`/console/orgs/${other}/oauth-clients/${client}/revoke`);
    expect([viaKey.status, viaClient.status]).toEqual([404, 404]);
    expect(await written()).toEqual(before);
    expect((await admin.get('/console/orgs/2147483647')).status).toBe(404);
  });

  it('reads webhook health from the indexes, not by scanning every failure', async () => {
    // Planner statistics on a table of a few rows favour a scan whatever the indexes: as at volume, the
    // plan is asked for without sequential scans and must then use the new indexes.
    const plans = await api.dataSource.transaction(async (manager) => {
      await manager.query('SET LOCAL enable_seqscan = off');
      const explain = async (sql: string) =>
        (await manager.query<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${sql}`))
          .map((row) => row['QUERY PLAN'])
          .join('\n');
      return [
        await explain(
          "SELECT f.failed_at FROM webhook_failures f WHERE f.org_id = 1 AND f.failed_at > now() - interval '24 hours'",
        ),
        await explain('SELECT f.event_id FROM webhook_failures f ORDER BY f.failed_at DESC LIMIT 20'),
      ];
    });
    expect(plans[0]).toContain('webhook_failures_org_failed');
    expect(plans[1]).toContain('webhook_failures_failed');
    // And the page itself answers.
    expect((await clients.get('SUPPORT')!.get('/console/webhooks?show=all')).status).toBe(200);
  });
});
