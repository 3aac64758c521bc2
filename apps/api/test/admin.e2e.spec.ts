// The operator surface end to end: operator credentials, organisations, API keys, OAuth clients and
// tokens, the audit log, revocation across instances, and the admin CLI against a running api.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { signedRequestHeaders } from '@svc/protocol';

import { ApiFixture, type OrgSession, type TestResponse } from './support/app-fixture.js';

const execFileAsync = promisify(execFile);
const CLI = join(__dirname, '..', 'dist', 'cli', 'admin.js');
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

interface OrgData {
  orgId: number;
  name: string;
  kycDomain: string;
  plan: string;
  supportEmails: string[];
  createdAt: string;
  updatedAt: string;
}
interface KeyData {
  id: string;
  apiKey: string;
  apiSecret?: string;
  label: string;
  revokedAt: string | null;
}
interface ClientData {
  id: string;
  clientId: string;
  clientSecret?: string;
  scopes: string[];
  revokedAt: string | null;
  tokensRevoked?: number;
}
interface AuditRow {
  actor: string;
  action: string;
  org_id: number | null;
  details: Record<string, unknown>;
}

describe('operator surface', () => {
  let api: ApiFixture;
  let org: OrgSession;
  /** A signed request is accepted once (replay refusal): a distinct query keeps each one unique. */
  let nonce = 0;
  const orgCall = (session: Pick<OrgSession, 'apiKey' | 'apiSecret'>, fixture: ApiFixture = api) =>
    fixture.request('GET', `/api/v1/org/?n=${++nonce}`, {
      headers: signedRequestHeaders(
        { path: '/api/v1/org/', query: `n=${nonce}`, body: '' },
        { apiKey: session.apiKey, apiSecret: session.apiSecret },
      ),
    });

  beforeAll(async () => {
    api = await ApiFixture.start();
    org = await api.createOrg();
  });
  afterAll(() => api.close());

  const count = async (table: string) =>
    Number((await api.rows<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0]!.n);
  // The fixture provisions its organisations through the audited services as actor 'system:test'; these
  // entries are the requests' own.
  const auditFor = (action: string, orgId: number) =>
    api.rows<AuditRow>(
      "SELECT actor, action, org_id, details FROM audit_log WHERE action = $1 AND org_id = $2 AND actor <> 'system:test' ORDER BY id",
      [action, orgId],
    );
  const ADMIN = 'admin@ops.test';
  const createOrg = async (body: Record<string, unknown> = {}) => {
    const response = await api.admin<OrgData>('POST', '/api/v1/admin/orgs/', {
      body: { name: 'Acme', kycDomain: 'acme.example', plan: 'STANDARD', ...body },
    });
    expect(response.status).toBe(200);
    return response.body.data!;
  };

  describe('operator credentials', () => {
    const routes: [string, string][] = [
      ['POST', '/api/v1/admin/orgs/'],
      ['GET', '/api/v1/admin/orgs/'],
      ['GET', '/api/v1/admin/orgs/1/'],
      ['PATCH', '/api/v1/admin/orgs/1/'],
      ['POST', '/api/v1/admin/orgs/1/api-keys/'],
      ['GET', '/api/v1/admin/orgs/1/api-keys/'],
      ['POST', '/api/v1/admin/orgs/1/api-keys/00000000-0000-0000-0000-000000000000/revoke'],
      ['POST', '/api/v1/admin/orgs/1/oauth-clients/'],
      ['GET', '/api/v1/admin/orgs/1/oauth-clients/'],
      ['POST', '/api/v1/admin/orgs/1/oauth-clients/00000000-0000-0000-0000-000000000000/revoke'],
      ['POST', '/api/v1/admin/orgs/1/tokens/revoke'],
      ['GET', '/api/v1/admin/audit/'],
    ];
    const MISSING =
      'Unauthorized: the operator routes need a personal token (Authorization: Bearer op_…) or a console session (sign in with POST /api/v1/admin/session)';
    const INVALID = 'Unauthorized: the personal token is invalid, expired or revoked';
    const expectRefused = (response: TestResponse, error: string) => {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 401, data: null, error });
    };

    it.each(routes)(
      '%s %s without a token, with a wrong one, or with ADMIN_TOKEN, is a 401 envelope',
      async (method, path) => {
        const body = method === 'GET' ? undefined : { name: 'x', kycDomain: 'x.example', plan: 'STANDARD' };
        const before = await count('audit_log');
        expectRefused(await api.request(method, path, { body }), MISSING);
        expectRefused(
          await api.request(method, path, { body, headers: { authorization: `Bearer ${api.adminToken}x` } }),
          INVALID,
        );
        expectRefused(
          await api.request(method, path, { body, headers: { authorization: api.adminToken } }),
          'Unauthorized: Authorization must be "Bearer <personal token>"',
        );
        // The shared secret is for the bootstrap route only, and only while no ADMIN exists.
        expectRefused(
          await api.request(method, path, {
            body,
            headers: { authorization: `Bearer ${api.config.adminToken!}` },
          }),
          'Unauthorized: ADMIN_TOKEN only bootstraps the first ADMIN (POST /api/v1/admin/operators); use your personal token or a console session (docs/operators.md)',
        );
        expect(await count('audit_log')).toBe(before);
      },
    );

    it("an organisation's API key signature or bearer token cannot use the admin surface", async () => {
      const orgs = await count('organisations');
      expectRefused(await org.signed('GET', '/api/v1/admin/orgs/'), MISSING);
      expectRefused(
        await org.signed('POST', '/api/v1/admin/orgs/', {
          body: { name: 'x', kycDomain: 'x.example', plan: 'STANDARD' },
        }),
        MISSING,
      );
      expectRefused(await org.bearer('GET', `/api/v1/admin/orgs/${org.orgId}/api-keys/`), INVALID);
      expect(await count('organisations')).toBe(orgs);
    });
  });

  describe('organisations', () => {
    it('creates one: stored as sent with kycDomain lowercased, answered once, audited', async () => {
      const response = await api.admin<OrgData>('POST', '/api/v1/admin/orgs/', {
        body: {
          name: 'Acme Brokerage',
          kycDomain: 'Acme.Example.COM',
          plan: 'ENTERPRISE',
          supportEmails: ['ops@acme.example.com', 'oncall@acme.example.com'],
        },
        // A claim of who acts is not read: the audit log names the token's operator.
        headers: { 'x-admin-actor': 'alice@ops' },
      });
      expect(response.status).toBe(200);
      expect(response.body.error).toBeNull();
      const data = response.body.data!;
      expect(data).toMatchObject({
        name: 'Acme Brokerage',
        kycDomain: 'acme.example.com',
        plan: 'ENTERPRISE',
        supportEmails: ['ops@acme.example.com', 'oncall@acme.example.com'],
        policy: { enabledAssets: [] },
      });
      expect(data).not.toHaveProperty('webhook');
      const [row] = await api.rows('SELECT * FROM organisations WHERE id = $1', [data.orgId]);
      expect(row).toMatchObject({
        name: 'Acme Brokerage',
        kyc_domain: 'acme.example.com',
        plan: 'ENTERPRISE',
        support_emails: ['ops@acme.example.com', 'oncall@acme.example.com'],
      });
      expect(await auditFor('org.create', data.orgId)).toEqual([
        {
          actor: ADMIN,
          action: 'org.create',
          org_id: data.orgId,
          details: {
            name: 'Acme Brokerage',
            kycDomain: 'acme.example.com',
            plan: 'ENTERPRISE',
            environment: 'LIVE',
            supportEmails: ['ops@acme.example.com', 'oncall@acme.example.com'],
          },
        },
      ]);
    });

    it('supportEmails may be left out; the audit entry names the operator by id too', async () => {
      const data = await createOrg({ kycDomain: 'localhost' });
      expect(data.supportEmails).toEqual([]);
      const rows = await api.rows<{ actor: string; operator_id: string }>(
        "SELECT actor, operator_id FROM audit_log WHERE action = 'org.create' AND org_id = $1",
        [data.orgId],
      );
      expect(rows).toEqual([{ actor: ADMIN, operator_id: api.adminOperator.id }]);
    });

    it('gets one, and 404 for an unknown one', async () => {
      const created = await createOrg();
      const response = await api.admin<OrgData>('GET', `/api/v1/admin/orgs/${created.orgId}/`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual(created);
      const missing = await api.admin('GET', '/api/v1/admin/orgs/2147483647/');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ code: 404, data: null, error: 'Not Found: no organisation 2147483647' });
    });

    it('lists them in creation order, a page at a time', async () => {
      await createOrg();
      await createOrg();
      const ids = (await api.rows<{ id: number }>('SELECT id FROM organisations ORDER BY id')).map(
        (r) => r.id,
      );
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
        const response = await api.admin<{ items: OrgData[]; nextCursor: string | null }>(
          'GET',
          `/api/v1/admin/orgs/${query}`,
        );
        expect(response.status).toBe(200);
        expect(response.body.data!.items.length).toBeLessThanOrEqual(2);
        seen.push(...response.body.data!.items.map((item) => item.orgId));
        cursor = response.body.data!.nextCursor;
      } while (cursor);
      expect(seen).toEqual(ids);
    });

    it('updates each field; the audit entry lists what changed, from and to', async () => {
      const created = await createOrg({ supportEmails: ['a@acme.example'] });
      const response = await api.admin<OrgData>('PATCH', `/api/v1/admin/orgs/${created.orgId}/`, {
        body: {
          name: 'Acme 2',
          kycDomain: 'NEW.acme.example',
          plan: 'ENTERPRISE',
          supportEmails: ['b@acme.example'],
        },
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        orgId: created.orgId,
        name: 'Acme 2',
        kycDomain: 'new.acme.example',
        plan: 'ENTERPRISE',
        supportEmails: ['b@acme.example'],
      });
      expect(Date.parse(response.body.data!.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
      const [row] = await api.rows('SELECT * FROM organisations WHERE id = $1', [created.orgId]);
      expect(row).toMatchObject({
        name: 'Acme 2',
        kyc_domain: 'new.acme.example',
        plan: 'ENTERPRISE',
        support_emails: ['b@acme.example'],
      });
      expect((await auditFor('org.update', created.orgId))[0]!.details).toEqual({
        changes: {
          name: { from: 'Acme', to: 'Acme 2' },
          kycDomain: { from: 'acme.example', to: 'new.acme.example' },
          plan: { from: 'STANDARD', to: 'ENTERPRISE' },
          supportEmails: { from: ['a@acme.example'], to: ['b@acme.example'] },
        },
      });

      const one = await api.admin<OrgData>('PATCH', `/api/v1/admin/orgs/${created.orgId}/`, {
        body: { supportEmails: [] },
      });
      expect(one.body.data).toMatchObject({ name: 'Acme 2', supportEmails: [] });
      expect((await auditFor('org.update', created.orgId))[1]!.details).toEqual({
        changes: { supportEmails: { from: ['b@acme.example'], to: [] } },
      });
    });

    it('answers 404 when updating an unknown organisation, storing nothing', async () => {
      const before = await count('audit_log');
      const response = await api.admin('PATCH', '/api/v1/admin/orgs/999999/', { body: { name: 'x' } });
      expect(response.status).toBe(404);
      expect(await count('audit_log')).toBe(before);
    });

    const badCreates: [string, Record<string, unknown>][] = [
      ['name', { name: undefined }],
      ['name', { name: null }],
      ['name', { name: '' }],
      ['name', { name: '   ' }],
      ['name', { name: 42 }],
      ['name', { name: 'x'.repeat(201) }],
      ['name', { name: 'tab\there' }],
      ['kycDomain', { kycDomain: undefined }],
      ['kycDomain', { kycDomain: 'https://acme.example' }],
      ['kycDomain', { kycDomain: 'acme.example/path' }],
      ['kycDomain', { kycDomain: 'acme.example:443' }],
      ['kycDomain', { kycDomain: 'com' }],
      ['kycDomain', { kycDomain: '10.0.0.1' }],
      ['kycDomain', { kycDomain: 'a..example' }],
      ['kycDomain', { kycDomain: '-acme.example' }],
      ['kycDomain', { kycDomain: 'acme_corp.example' }],
      ['kycDomain', { kycDomain: 'acme.example.' }],
      ['kycDomain', { kycDomain: `${'a'.repeat(64)}.example` }],
      ['kycDomain', { kycDomain: ['acme.example'] }],
      ['plan', { plan: undefined }],
      ['plan', { plan: 'GOLD' }],
      ['plan', { plan: 'enterprise' }],
      ['supportEmails', { supportEmails: 'ops@acme.example' }],
      ['supportEmails', { supportEmails: null }],
      ['supportEmails', { supportEmails: ['not an address'] }],
      ['supportEmails', { supportEmails: [7] }],
      ['supportEmails', { supportEmails: ['a@acme.example', 'A@acme.example'] }],
      ['supportEmails', { supportEmails: Array.from({ length: 11 }, (_, i) => `a${i}@acme.example`) }],
      ['policy', { policy: { quoteLimit: '1' } }],
    ];

    it.each(badCreates)('create: a bad %s %j is a 400 naming it, nothing stored', async (field, override) => {
      const [orgs, audits] = [await count('organisations'), await count('audit_log')];
      // An undefined value leaves the field out (JSON has no undefined).
      const body = { name: 'Acme', kycDomain: 'acme.example', plan: 'STANDARD', ...override };
      const response = await api.admin('POST', '/api/v1/admin/orgs/', { body });
      expect(response.status).toBe(400);
      expect(response.body.data).toBeNull();
      expect(response.body.error).toMatch(new RegExp(`^Bad Request: .*\\b${field}\\b`));
      expect([await count('organisations'), await count('audit_log')]).toEqual([orgs, audits]);
    });

    const badUpdates: [string, Record<string, unknown>][] = [
      ['name', { name: null }],
      ['name', { name: '' }],
      ['kycDomain', { kycDomain: null }],
      ['kycDomain', { kycDomain: 'http://x.example' }],
      ['plan', { plan: null }],
      ['plan', { plan: 'FREE' }],
      ['supportEmails', { supportEmails: null }],
      ['supportEmails', { supportEmails: ['nope'] }],
      ['orgId', { orgId: 5 }],
      ['at least one of name, kycDomain, plan, supportEmails', {}],
    ];

    it.each(badUpdates)('update: a bad %s %j is a 400 naming it, nothing changed', async (field, body) => {
      const created = await createOrg();
      const before = await api.rows('SELECT * FROM organisations WHERE id = $1', [created.orgId]);
      const audits = await count('audit_log');
      const response = await api.admin('PATCH', `/api/v1/admin/orgs/${created.orgId}/`, { body });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(field);
      expect(await api.rows('SELECT * FROM organisations WHERE id = $1', [created.orgId])).toEqual(before);
      expect(await count('audit_log')).toBe(audits);
    });

    it.each(['abc', '0', '-1', '1.5', '2147483648', '99999999999'])(
      'a malformed orgId %s is a 400 naming it',
      async (orgId) => {
        const response = await api.admin('GET', `/api/v1/admin/orgs/${orgId}/`);
        expect(response.status).toBe(400);
        expect(response.body.error).toBe('Bad Request: orgId must be an integer from 1 to 2147483647');
      },
    );

    it('X-Admin-Actor, whatever it holds, is not read', async () => {
      const response = await api.admin<OrgData>('POST', '/api/v1/admin/orgs/', {
        body: { name: 'Acme', kycDomain: 'acme.example', plan: 'STANDARD' },
        headers: { 'x-admin-actor': 'x'.repeat(65) },
      });
      expect(response.status).toBe(200);
      expect((await auditFor('org.create', response.body.data!.orgId))[0]!.actor).toBe(ADMIN);
    });
  });

  describe('API keys', () => {
    it('issues one: the secret is in that answer only, stored encrypted, and it signs requests', async () => {
      const target = await api.createOrg();
      const response = await api.admin<KeyData>('POST', `/api/v1/admin/orgs/${target.orgId}/api-keys/`, {
        body: { label: 'backend' },
      });
      expect(response.status).toBe(200);
      const key = response.body.data!;
      expect(key).toMatchObject({ orgId: target.orgId, label: 'backend', revokedAt: null });
      expect(key.apiKey).toMatch(/^pk_[A-Za-z0-9_-]+$/);
      expect(key.apiSecret).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);

      const [row] = await api.rows<{ key: string; secret_ciphertext: string; label: string }>(
        'SELECT key, secret_ciphertext, label FROM api_keys WHERE id = $1',
        [key.id],
      );
      expect(row).toMatchObject({ key: key.apiKey, label: 'backend' });
      expect(row!.secret_ciphertext).not.toContain(key.apiSecret!);

      expect((await orgCall({ apiKey: key.apiKey, apiSecret: key.apiSecret! })).status).toBe(200);

      const [audit] = await auditFor('api-key.issue', target.orgId);
      expect(audit).toEqual({
        actor: ADMIN,
        action: 'api-key.issue',
        org_id: target.orgId,
        details: { id: key.id, apiKey: key.apiKey, label: 'backend' },
      });
    });

    it('issues one with an empty body (no label)', async () => {
      const response = await api.admin<KeyData>('POST', `/api/v1/admin/orgs/${org.orgId}/api-keys/`);
      expect(response.status).toBe(200);
      expect(response.body.data!.label).toBe('');
    });

    it('lists every key, revoked ones too, never a secret', async () => {
      const target = await api.createOrg();
      await api.admin('POST', `/api/v1/admin/orgs/${target.orgId}/api-keys/`, { body: { label: 'second' } });
      const response = await api.admin<{ items: KeyData[] }>(
        'GET',
        `/api/v1/admin/orgs/${target.orgId}/api-keys/`,
      );
      expect(response.status).toBe(200);
      const items = response.body.data!.items;
      expect(items.map((item) => [item.apiKey, item.label])).toEqual([
        [target.apiKey, 'test'],
        [expect.stringMatching(/^pk_/), 'second'],
      ]);
      for (const item of items) {
        expect(Object.keys(item).sort()).toEqual([
          'apiKey',
          'createdAt',
          'id',
          'label',
          'lastUsedAt',
          'orgId',
          'revokedAt',
        ]);
      }
      expect(response.text).not.toContain(target.apiSecret);
    });

    it('revokes one (by id or by its pk_ value): refused at once, idempotent, audited each time', async () => {
      const target = await api.createOrg();
      expect((await orgCall(target)).status).toBe(200);
      const [{ id }] = (await api.rows<{ id: string }>('SELECT id FROM api_keys WHERE key = $1', [
        target.apiKey,
      ])) as [{ id: string }];

      const response = await api.admin<KeyData>(
        'POST',
        `/api/v1/admin/orgs/${target.orgId}/api-keys/${id}/revoke`,
      );
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        id,
        apiKey: target.apiKey,
        revokedAt: expect.any(String) as string,
      });
      expect(response.text).not.toContain(target.apiSecret);

      const refused = await orgCall(target);
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('Unauthorized: unknown or revoked X-API-KEY');
      const [row] = await api.rows<{ revoked_at: Date }>('SELECT revoked_at FROM api_keys WHERE id = $1', [
        id,
      ]);
      expect(row!.revoked_at.toISOString()).toBe(response.body.data!.revokedAt);

      const again = await api.admin<KeyData>(
        'POST',
        `/api/v1/admin/orgs/${target.orgId}/api-keys/${target.apiKey}/revoke`,
      );
      expect(again.status).toBe(200);
      expect(again.body.data!.revokedAt).toBe(response.body.data!.revokedAt);
      expect((await auditFor('api-key.revoke', target.orgId)).map((a) => a.details)).toEqual([
        { id, apiKey: target.apiKey, alreadyRevoked: false },
        { id, apiKey: target.apiKey, alreadyRevoked: true },
      ]);
    });

    it("404 for another organisation's key or an unknown organisation; 400 for a malformed id or label", async () => {
      const other = await api.createOrg();
      const audits = await count('audit_log');
      const foreign = await api.admin(
        'POST',
        `/api/v1/admin/orgs/${org.orgId}/api-keys/${other.apiKey}/revoke`,
      );
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe(`Not Found: organisation ${org.orgId} has no API key ${other.apiKey}`);
      expect((await orgCall(other)).status).toBe(200);

      const keys = await count('api_keys');
      expect((await api.admin('POST', '/api/v1/admin/orgs/999999/api-keys/', { body: {} })).status).toBe(404);
      expect((await api.admin('GET', '/api/v1/admin/orgs/999999/api-keys/')).status).toBe(404);

      const malformed = await api.admin('POST', `/api/v1/admin/orgs/${org.orgId}/api-keys/nope/revoke`);
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toBe('Bad Request: id must be a UUID or a pk_… value');
      for (const label of [7, null, 'x'.repeat(101), 'line\nbreak']) {
        const response = await api.admin('POST', `/api/v1/admin/orgs/${org.orgId}/api-keys/`, {
          body: { label },
        });
        expect(response.status).toBe(400);
        expect(response.body.error).toMatch(/^Bad Request: label /);
      }
      const unknown = await api.admin('POST', `/api/v1/admin/orgs/${org.orgId}/api-keys/`, {
        body: { secret: 'x' },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toBe('Bad Request: secret: property secret should not exist');
      expect([await count('api_keys'), await count('audit_log')]).toEqual([keys, audits]);
    });
  });

  describe('OAuth clients and tokens', () => {
    const tokenRequest = (clientId: string, clientSecret: string, scope: string) =>
      api.request<{ access_token: string }>('POST', '/api/v1/oauth/token', {
        rawBody: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
          scope,
        }).toString(),
        contentType: 'application/x-www-form-urlencoded',
      });
    const bearerOrgCall = (token: string) =>
      api.request('GET', '/api/v1/org/', { headers: { authorization: `Bearer ${token}` } });

    it('issues one with scopes: the secret is in that answer only, stored hashed, and gets tokens', async () => {
      const response = await api.admin<ClientData>('POST', `/api/v1/admin/orgs/${org.orgId}/oauth-clients/`, {
        body: { scopes: 'BASE_MODULE:READ  MANAGE_USERS:READWRITE BASE_MODULE:READ', label: 'mobile' },
      });
      expect(response.status).toBe(200);
      const client = response.body.data!;
      expect(client).toMatchObject({
        orgId: org.orgId,
        scopes: ['BASE_MODULE:READ', 'MANAGE_USERS:READWRITE'],
        label: 'mobile',
        revokedAt: null,
      });
      expect(client.clientId).toMatch(/^cl_/);
      expect(client.clientSecret).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
      const [row] = await api.rows<{ secret_hash: string; scopes: string[] }>(
        'SELECT secret_hash, scopes FROM oauth_clients WHERE id = $1',
        [client.id],
      );
      expect(row!.scopes).toEqual(['BASE_MODULE:READ', 'MANAGE_USERS:READWRITE']);
      expect(row!.secret_hash).toMatch(/^scrypt\$/);
      expect(row!.secret_hash).not.toContain(client.clientSecret!);

      expect((await tokenRequest(client.clientId, client.clientSecret!, 'BASE_MODULE:READ')).status).toBe(
        200,
      );
      expect((await tokenRequest(client.clientId, client.clientSecret!, 'BASE_MODULE:WRITE')).status).toBe(
        401,
      );
      expect((await auditFor('oauth-client.issue', org.orgId)).at(-1)!.details).toEqual({
        id: client.id,
        clientId: client.clientId,
        scopes: ['BASE_MODULE:READ', 'MANAGE_USERS:READWRITE'],
        label: 'mobile',
      });
    });

    it('lists every client, never a secret or its hash', async () => {
      const response = await api.admin<{ items: ClientData[] }>(
        'GET',
        `/api/v1/admin/orgs/${org.orgId}/oauth-clients/`,
      );
      expect(response.status).toBe(200);
      expect(response.body.data!.items[0]).toMatchObject({ clientId: org.clientId, label: 'test' });
      for (const item of response.body.data!.items) {
        expect(Object.keys(item).sort()).toEqual([
          'clientId',
          'createdAt',
          'id',
          'label',
          'lastUsedAt',
          'orgId',
          'revokedAt',
          'scopes',
        ]);
      }
      expect(response.text).not.toContain(org.clientSecret);
      expect(response.text).not.toContain('scrypt');
    });

    it.each([
      [{}, /^Bad Request: scopes should not be null or undefined/],
      [{ scopes: ['BASE_MODULE:READ'] }, /^Bad Request: .*scopes must be a string/],
      [{ scopes: 'BASE_MODULE:ADMIN' }, /^Bad Request: scopes: Unknown scope "BASE_MODULE:ADMIN"/],
      [{ scopes: 'ORDERS:READ' }, /^Bad Request: scopes: Unknown scope "ORDERS:READ"/],
      [{ scopes: '   ' }, /^Bad Request: scopes must name at least one MODULE:PERMISSION/],
      [{ scopes: 'BASE_MODULE:READ', label: 3 }, /^Bad Request: .*label must be a string/],
    ])('issuing with %j is a 400 naming the field, nothing stored', async (body, error) => {
      const [clients, audits] = [await count('oauth_clients'), await count('audit_log')];
      const response = await api.admin('POST', `/api/v1/admin/orgs/${org.orgId}/oauth-clients/`, { body });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(error);
      expect([await count('oauth_clients'), await count('audit_log')]).toEqual([clients, audits]);
    });

    it('revoking a client revokes its tokens: refused at once, other clients untouched, audited', async () => {
      const target = await api.createOrg();
      const second = await api.admin<ClientData>(
        'POST',
        `/api/v1/admin/orgs/${target.orgId}/oauth-clients/`,
        {
          body: { scopes: 'BASE_MODULE:READ' },
        },
      );
      const kept = second.body.data!;
      const [a, b] = [await target.token(['BASE_MODULE:READ']), await target.token(['BASE_MODULE:READ'])];
      const other = (await tokenRequest(kept.clientId, kept.clientSecret!, 'BASE_MODULE:READ')).body.data!
        .access_token;
      for (const token of [a, b, other]) expect((await bearerOrgCall(token)).status).toBe(200);

      const response = await api.admin<ClientData>(
        'POST',
        `/api/v1/admin/orgs/${target.orgId}/oauth-clients/${target.clientId}/revoke`,
        {},
      );
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        clientId: target.clientId,
        revokedAt: expect.any(String) as string,
        tokensRevoked: 2,
      });

      for (const token of [a, b]) {
        const refused = await bearerOrgCall(token);
        expect(refused.status).toBe(401);
        expect(refused.body.error).toBe('Unauthorized: the access token is invalid, expired or revoked');
      }
      expect((await bearerOrgCall(other)).status).toBe(200);
      const stored = await api.rows<{ client_id: string; live: boolean }>(
        'SELECT c.client_id, t.revoked_at IS NULL AS live FROM oauth_tokens t JOIN oauth_clients c ON c.id = t.client_id WHERE t.org_id = $1',
        [target.orgId],
      );
      expect(stored.filter((t) => t.live).map((t) => t.client_id)).toEqual([kept.clientId]);
      const denied = await tokenRequest(target.clientId, target.clientSecret, 'BASE_MODULE:READ');
      expect(denied.status).toBe(401);
      expect(denied.body.error).toBe('Forbidden');

      expect(await auditFor('oauth-client.revoke', target.orgId)).toEqual([
        {
          actor: ADMIN,
          action: 'oauth-client.revoke',
          org_id: target.orgId,
          details: {
            id: response.body.data!.id,
            clientId: target.clientId,
            alreadyRevoked: false,
            tokensRevoked: 2,
          },
        },
      ]);
      const listed = await api.admin<{ items: ClientData[] }>(
        'GET',
        `/api/v1/admin/orgs/${target.orgId}/oauth-clients/`,
      );
      expect(listed.body.data!.items.map((c) => c.revokedAt === null)).toEqual([false, true]);
    });

    it('a client of another organisation is a 404, nothing revoked', async () => {
      const other = await api.createOrg();
      const response = await api.admin(
        'POST',
        `/api/v1/admin/orgs/${org.orgId}/oauth-clients/${other.clientId}/revoke`,
      );
      expect(response.status).toBe(404);
      expect(await other.token(['BASE_MODULE:READ'])).toMatch(/^at_/);
      const malformed = await api.admin('POST', `/api/v1/admin/orgs/${org.orgId}/oauth-clients/pk_x/revoke`);
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toBe('Bad Request: id must be a UUID or a cl_… value');
    });

    it("revokes every live token of an organisation, not another's; the clients keep working", async () => {
      const target = await api.createOrg();
      const bystander = await api.createOrg();
      const tokens = [
        await target.token(['BASE_MODULE:READ']),
        await target.token(['BASE_MODULE:READWRITE']),
      ];
      const theirs = await bystander.token(['BASE_MODULE:READ']);
      for (const token of [...tokens, theirs]) expect((await bearerOrgCall(token)).status).toBe(200);

      const response = await api.admin('POST', `/api/v1/admin/orgs/${target.orgId}/tokens/revoke`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ revoked: 2 });
      for (const token of tokens) expect((await bearerOrgCall(token)).status).toBe(401);
      expect((await bearerOrgCall(theirs)).status).toBe(200);
      expect((await bearerOrgCall(await target.token(['BASE_MODULE:READ']))).status).toBe(200);

      expect((await auditFor('oauth-token.revoke', target.orgId)).map((a) => a.details)).toEqual([
        { revoked: 2 },
      ]);
      expect((await api.admin('POST', '/api/v1/admin/orgs/999999/tokens/revoke')).status).toBe(404);
    });
  });

  describe('revocation on another instance', () => {
    // Another instance is another process (dist/main.js) on the same database, with its own credential
    // cache. (Two apps in one process would share passport's strategy registry, and so one cache.)
    let other: ChildProcess;
    let otherApi: ApiFixture;

    beforeAll(async () => {
      if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the api first (turbo run build)`);
      const port = await freePort();
      other = spawn(process.execPath, [MAIN], {
        env: {
          PATH: process.env.PATH ?? '',
          NODE_ENV: 'test',
          DATABASE_URL: api.db.url,
          MASTER_KEY: api.config.masterKey.toString('base64'),
          DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-admin-e2e-')),
          PORT: String(port),
          LOG_LEVEL: 'silent',
        },
        stdio: 'ignore',
      });
      // The fixture's helpers, talking to the other instance.
      otherApi = Object.create(api, { baseUrl: { value: `http://127.0.0.1:${port}` } }) as ApiFixture;
      for (const started = Date.now(); ; await sleep(100)) {
        const ready = await otherApi.request('GET', '/healthz').catch(() => undefined);
        if (ready?.status === 200) break;
        if (Date.now() - started > 20_000) throw new Error('the second api did not start within 20 s');
      }
    }, 30_000);
    afterAll(async () => {
      const exited = new Promise((resolve) => other.once('exit', resolve));
      other.kill('SIGTERM');
      await exited;
    });

    /** Calls `check` until it answers 401; returns how long that took after `since`. */
    async function refusedAfter(since: number, check: () => Promise<TestResponse>): Promise<number> {
      for (;;) {
        const response = await check();
        if (response.status === 401) return Date.now() - since;
        expect(response.status).toBe(200);
        if (Date.now() - since > 2000) return Infinity;
        await sleep(25);
      }
    }

    it('a revoked API key is refused by every instance within 1 s', async () => {
      const target = await api.createOrg();
      expect((await orgCall(target, otherApi)).status).toBe(200);
      const revoked = await api.admin(
        'POST',
        `/api/v1/admin/orgs/${target.orgId}/api-keys/${target.apiKey}/revoke`,
      );
      const at = Date.now();
      expect(revoked.status).toBe(200);
      expect((await orgCall(target)).status).toBe(401);
      expect(await refusedAfter(at, () => orgCall(target, otherApi))).toBeLessThan(1000);
    });

    it('a revoked personal token, or a disabled operator, is refused by every instance at once', async () => {
      const operator = await api.createOperator('SUPPORT');
      const list = (fixture: ApiFixture, as: { token: string }) =>
        fixture.admin('GET', '/api/v1/admin/orgs/', { operator: as });
      expect((await list(otherApi, operator)).status).toBe(200);
      expect((await api.admin('POST', `/api/v1/admin/tokens/${operator.tokenId}/revoke`)).status).toBe(200);
      expect((await list(otherApi, operator)).status).toBe(401);

      const disabled = await api.createOperator('SUPPORT');
      expect((await list(otherApi, disabled)).status).toBe(200);
      expect((await api.admin('POST', `/api/v1/admin/operators/${disabled.id}/disable`)).status).toBe(200);
      expect((await list(otherApi, disabled)).status).toBe(401);
    });

    it('revoked tokens and clients are refused by every instance within 1 s', async () => {
      const target = await api.createOrg();
      const [one, two] = [await target.token(['BASE_MODULE:READ']), await target.token(['BASE_MODULE:READ'])];
      const call = (fixture: ApiFixture, token: string) =>
        fixture.request('GET', '/api/v1/org/', { headers: { authorization: `Bearer ${token}` } });
      expect((await call(otherApi, one)).status).toBe(200);

      await api.admin('POST', `/api/v1/admin/orgs/${target.orgId}/tokens/revoke`);
      let at = Date.now();
      expect((await call(api, one)).status).toBe(401);
      expect(await refusedAfter(at, () => call(otherApi, one))).toBeLessThan(1000);

      const three = await target.token(['BASE_MODULE:READ']);
      expect((await call(otherApi, three)).status).toBe(200);
      await api.admin('POST', `/api/v1/admin/orgs/${target.orgId}/oauth-clients/${target.clientId}/revoke`);
      at = Date.now();
      expect((await call(api, three)).status).toBe(401);
      expect(await refusedAfter(at, () => call(otherApi, three))).toBeLessThan(1000);
      expect((await call(otherApi, two)).status).toBe(401);
    });
  });

  describe('audit log', () => {
    it('lists entries oldest first, filtered by orgId and action, a page at a time', async () => {
      const created = await createOrg();
      await api.admin('PATCH', `/api/v1/admin/orgs/${created.orgId}/`, { body: { name: 'one' } });
      await api.admin('PATCH', `/api/v1/admin/orgs/${created.orgId}/`, { body: { name: 'two' } });
      await api.admin('POST', `/api/v1/admin/orgs/${created.orgId}/api-keys/`, { body: { label: 'k' } });

      const all = await api.admin<{
        items: { action: string; orgId: number; actor: string; id: string; createdAt: string }[];
        nextCursor: null;
      }>('GET', `/api/v1/admin/audit/?orgId=${created.orgId}`);
      expect(all.status).toBe(200);
      expect(all.body.data!.items.map((item) => item.action)).toEqual([
        'org.create',
        'org.update',
        'org.update',
        'api-key.issue',
      ]);
      expect(all.body.data!.items[0]).toMatchObject({
        orgId: created.orgId,
        actor: ADMIN,
        operatorId: api.adminOperator.id,
        details: expect.any(Object) as object,
      });
      expect(all.body.data!.nextCursor).toBeNull();

      const updates = await api.admin<{ items: { details: unknown }[]; nextCursor: string | null }>(
        'GET',
        `/api/v1/admin/audit/?orgId=${created.orgId}&action=org.update&limit=1`,
      );
      expect(updates.body.data!.items.map((item) => item.details)).toEqual([
        { changes: { name: { from: 'Acme', to: 'one' } } },
      ]);
      const next = await api.admin<{ items: { details: unknown }[]; nextCursor: string | null }>(
        'GET',
        `/api/v1/admin/audit/?orgId=${created.orgId}&action=org.update&limit=1&cursor=${updates.body.data!.nextCursor!}`,
      );
      expect(next.body.data!.items.map((item) => item.details)).toEqual([
        { changes: { name: { from: 'one', to: 'two' } } },
      ]);
      expect(next.body.data!.nextCursor).toBeNull();
    });

    it('filters by the operator who acted and by time, combined with the other filters', async () => {
      const created = await createOrg();
      const ops = await api.createOperator('TRADING_OPS');
      await api.admin('PATCH', `/api/v1/admin/orgs/${created.orgId}/policy`, {
        operator: ops,
        body: { enabledAssets: ['BTC'] },
      });
      await api.admin('PATCH', `/api/v1/admin/orgs/${created.orgId}/`, { body: { name: 'renamed' } });
      type Items = {
        items: { action: string; actor: string; operatorId: string | null; createdAt: string }[];
      };
      const list = async (query: string) =>
        (await api.admin<Items>('GET', `/api/v1/admin/audit/?orgId=${created.orgId}&${query}`)).body.data!
          .items;

      expect(
        (await list(`operatorId=${ops.id}`)).map((item) => [item.action, item.actor, item.operatorId]),
      ).toEqual([['org.policy', ops.email, ops.id]]);
      expect((await list(`operatorId=${api.adminOperator.id}`)).map((item) => item.action)).toEqual([
        'org.create',
        'org.update',
      ]);
      // By e-mail, as a person types it (any case, spaces around): the same entries as by id.
      expect(
        (await list(`operatorEmail=${encodeURIComponent(` ${ops.email.toUpperCase()} `)}`)).map((item) => [
          item.action,
          item.operatorId,
        ]),
      ).toEqual([['org.policy', ops.id]]);
      expect(await list('operatorEmail=nobody%40ops.test')).toEqual([]);
      // Time: backdate the creation, then ask around it.
      await api.rows(
        "UPDATE audit_log SET created_at = now() - interval '2 hours' WHERE org_id = $1 AND action = 'org.create'",
        [created.orgId],
      );
      const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
      expect((await list(`to=${hourAgo}`)).map((item) => item.action)).toEqual(['org.create']);
      expect((await list(`from=${hourAgo}`)).map((item) => item.action)).toEqual([
        'org.policy',
        'org.update',
      ]);
      expect(
        (
          await list(`from=${hourAgo}&to=${new Date(Date.now() + 60_000).toISOString()}&action=org.update`)
        ).map((item) => item.action),
      ).toEqual(['org.update']);
    });

    it.each([
      ['operatorId=nope', 'operatorId must be a UUID'],
      ['operatorEmail=nope', 'operatorEmail must be an e-mail address'],
      ['from=yesterday', 'from must be an ISO 8601 date-time'],
      ['to=2030-13-01T00:00:00Z', 'to must be an ISO 8601 date-time'],
      ['from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z', 'from must be before to'],
    ])('a bad filter %s is a 400: %s', async (query, message) => {
      const response = await api.admin('GET', `/api/v1/admin/audit/?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(message);
    });

    it.each([
      ['orgId=abc', 'orgId'],
      ['orgId=0', 'orgId'],
      ['action=DROP%20TABLE', 'action'],
      ['limit=0', 'limit'],
      ['cursor=%25%25', 'cursor'],
      ['cursor=abc', 'cursor'],
      ['actor=x', 'actor'],
    ])('a bad filter %s is a 400 naming %s', async (query, field) => {
      const response = await api.admin('GET', `/api/v1/admin/audit/?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(field);
    });

    it('holds no secret anywhere', async () => {
      const issued = await api.admin<KeyData>('POST', `/api/v1/admin/orgs/${org.orgId}/api-keys/`, {
        body: {},
      });
      const client = await api.admin<ClientData>('POST', `/api/v1/admin/orgs/${org.orgId}/oauth-clients/`, {
        body: { scopes: 'BASE_MODULE:READ' },
      });
      const text = JSON.stringify(await api.rows('SELECT * FROM audit_log'));
      expect(text).not.toContain(issued.body.data!.apiSecret!);
      expect(text).not.toContain(client.body.data!.clientSecret!);
      expect(text).not.toMatch(/"(sk|cs|at)_/);
      expect(text).not.toContain(api.adminToken);
      expect(text).not.toMatch(/"op_/);
    });
  });

  describe('the admin CLI', () => {
    beforeAll(() => {
      if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build the api first (turbo run build)`);
    });

    const cli = (args: string[], env: Record<string, string> = {}) =>
      execFileAsync(process.execPath, [CLI, ...args], {
        env: {
          PATH: process.env.PATH ?? '',
          SVC_URL: api.baseUrl,
          SVC_OPERATOR_TOKEN: api.adminToken,
          ...env,
        },
      }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: unknown) => error as { code: number; stdout: string; stderr: string },
      );

    it('orgs bootstrap --json prints credentials that sign requests and get tokens', async () => {
      const { code, stdout, stderr } = await cli(
        [
          'orgs',
          'bootstrap',
          '--url',
          api.baseUrl,
          '--token',
          api.adminToken,
          '--name',
          'Scripted Ltd',
          '--kyc-domain',
          'scripted.example',
          '--plan',
          'ENTERPRISE',
          '--support-email',
          'ops@scripted.example',
          '--support-email',
          'cto@scripted.example',
          '--scopes',
          'BASE_MODULE:READWRITE MANAGE_USERS:READ',
          '--json',
        ],
        { SVC_URL: '', SVC_OPERATOR_TOKEN: '' },
      );
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const printed = JSON.parse(stdout) as {
        orgId: number;
        apiKey: string;
        apiSecret: string;
        clientId: string;
        clientSecret: string;
        scopes: string[];
        baseUrl: string;
      };
      expect(stdout.trim().split('\n')).toHaveLength(1);
      expect(printed).toMatchObject({
        baseUrl: api.baseUrl,
        name: 'Scripted Ltd',
        kycDomain: 'scripted.example',
        plan: 'ENTERPRISE',
        supportEmails: ['ops@scripted.example', 'cto@scripted.example'],
        scopes: ['BASE_MODULE:READWRITE', 'MANAGE_USERS:READ'],
      });

      const response = await api.request('GET', '/api/v1/org/', {
        headers: signedRequestHeaders(
          { path: '/api/v1/org/', body: '' },
          { apiKey: printed.apiKey, apiSecret: printed.apiSecret },
        ),
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ orgId: printed.orgId, name: 'Scripted Ltd' });

      const token = await api.request('POST', '/api/v1/oauth/token', {
        rawBody: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: printed.clientId,
          client_secret: printed.clientSecret,
          scope: 'BASE_MODULE:READ',
        }).toString(),
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(token.status).toBe(200);
      expect(
        (
          await api.rows<AuditRow>('SELECT actor, action FROM audit_log WHERE org_id = $1 ORDER BY id', [
            printed.orgId,
          ])
        ).map((r) => [r.actor, r.action]),
      ).toEqual([
        [ADMIN, 'org.create'],
        [ADMIN, 'api-key.issue'],
        [ADMIN, 'oauth-client.issue'],
      ]);
    });

    it('lists and revokes with --json; prints readable text without it', async () => {
      const listed = await cli(['api-keys', 'list', String(org.orgId), '--json']);
      expect(listed.code).toBe(0);
      const items = (JSON.parse(listed.stdout) as { items: KeyData[] }).items;
      expect(items.map((item) => item.apiKey)).toContain(org.apiKey);

      const text = await cli(['orgs', 'get', String(org.orgId)]);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(new RegExp(`^orgId +${org.orgId}$`, 'm'));
      expect(text.stdout).toMatch(/^plan +ENTERPRISE$/m);

      const audit = await cli([
        'audit',
        'list',
        '--org',
        String(org.orgId),
        '--action',
        'api-key.issue',
        '--json',
      ]);
      expect(audit.code).toBe(0);
      expect((JSON.parse(audit.stdout) as { items: unknown[] }).items.length).toBeGreaterThan(0);
    });

    it("an api error exits 1 with the envelope's error on stderr and nothing on stdout", async () => {
      const orgs = await count('organisations');
      const args = ['orgs', 'create', '--name', 'Bad', '--kyc-domain', 'http://bad', '--plan', 'STANDARD'];
      const result = await cli(args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^Bad Request: kycDomain must be a hostname/);

      const json = await cli([...args, '--json']);
      expect({ code: json.code, stdout: json.stdout }).toEqual({ code: 1, stdout: '' });
      expect(json.stderr).toMatch(/^[^\n]+\n$/);
      expect(JSON.parse(json.stderr)).toEqual({
        error: { kind: 'api', status: 400, message: result.stderr.trim() },
      });
      expect(await count('organisations')).toBe(orgs);

      const refused = await cli(['orgs', 'list', '--json'], { SVC_OPERATOR_TOKEN: 'wrong' });
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stderr)).toMatchObject({ error: { kind: 'api', status: 401 } });
      expect((JSON.parse(refused.stderr) as { error: { message: string } }).error.message).toMatch(
        /^Unauthorized: the personal token is invalid/,
      );
    });

    it('bad usage exits 2: text with the usage, or one line of JSON with --json', async () => {
      const usage = await cli(['orgs', 'frobnicate']);
      expect(usage.code).toBe(2);
      expect(usage.stdout).toBe('');
      expect(usage.stderr).toMatch(/unknown command/);
      expect(usage.stderr).toContain('  orgs create ');
      expect(usage.stderr).not.toContain('  prices set ');

      const json = await cli(['orgs', 'frobnicate', '--json']);
      expect({ code: json.code, stdout: json.stdout }).toEqual({ code: 2, stdout: '' });
      expect(JSON.parse(json.stderr)).toEqual({
        error: { kind: 'usage', status: null, message: 'unknown command "orgs frobnicate"' },
      });
      const badFlag = await cli(['orgs', 'get', '1', '--json', '--bogus']);
      expect(badFlag.code).toBe(2);
      expect(JSON.parse(badFlag.stderr)).toMatchObject({ error: { kind: 'usage', status: null } });
    });

    it('an api nobody answers is exit 1, kind network, with --json', async () => {
      const result = await cli(['orgs', 'list', '--json'], {
        SVC_URL: `http://127.0.0.1:${await freePort()}`,
      });
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stderr)).toMatchObject({
        error: {
          kind: 'network',
          status: null,
          message: expect.stringContaining('cannot reach the api') as unknown,
        },
      });
    });
  });
});
