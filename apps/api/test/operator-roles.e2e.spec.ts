// Least privilege, table-driven from the served OpenAPI document: every operator route names its role, and
// each role is allowed or refused on each route as auth/roles.ts says; a refusal writes nothing. Sensitive
// routes need a fresh second factor (step-up).
import { OPERATOR_ROLES, type OperatorRole } from '@svc/db';

import { grantsRole, rolesGranting } from '../src/auth/roles.js';
import { ApiFixture, type TestOperator } from './support/app-fixture.js';

type Operation = {
  'x-operator-role'?: OperatorRole;
  'x-step-up'?: boolean;
  requestBody?: unknown;
  security?: unknown[];
};
type OpenApi = { paths: Record<string, Record<string, Operation>> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

describe('operator roles on every admin route', () => {
  let api: ApiFixture;
  let routes: { method: string; path: string; role: OperatorRole; stepUp: boolean; body: boolean }[];
  const operators = {} as Record<OperatorRole, TestOperator>;
  let orgId: number;

  beforeAll(async () => {
    api = await ApiFixture.start();
    orgId = (await api.createOrg()).orgId;
    for (const role of OPERATOR_ROLES) operators[role] = await api.createOperator(role, { stepUp: true });
    const document = (await api.request('GET', '/openapi.json')).body as unknown as OpenApi;
    routes = Object.entries(document.paths).flatMap(([path, item]) =>
      METHODS.flatMap((method) => {
        const operation = item[method];
        // Enrolment and sign-in are public: they are how an operator gets credentials.
        if (!operation || !path.startsWith('/api/v1/admin/') || operation.security?.length === 0) return [];
        return [
          {
            method: method.toUpperCase(),
            path,
            role: operation['x-operator-role']!,
            stepUp: operation['x-step-up'] === true,
            body: operation.requestBody !== undefined,
          },
        ];
      }),
    );
  });
  afterAll(() => api.close());

  /** The path with its parameters filled: a real organisation, made-up ids for the rest. */
  const concrete = (path: string) =>
    path
      .replace('{orgId}', String(orgId))
      .replace('{orgUserId}', 'nobody')
      .replace('{symbol}', 'BTC_EUR')
      .replace('{id}', path.includes('/notices/') ? '1' : '00000000-0000-4000-8000-000000000000');
  const auditRows = async () =>
    Number((await api.rows<{ n: string }>('SELECT count(*) AS n FROM audit_log'))[0]!.n);

  it('every admin route declares a role, and each role is allowed or refused on it', async () => {
    expect(routes.length).toBeGreaterThanOrEqual(30);
    const table: string[] = [];
    for (const route of routes) {
      expect({ route: `${route.method} ${route.path}`, role: route.role }).toEqual({
        route: `${route.method} ${route.path}`,
        role: expect.stringMatching(/^(ADMIN|KYC_REVIEWER|TRADING_OPS|SUPPORT)$/) as unknown,
      });
      for (const role of OPERATOR_ROLES) {
        const before = await auditRows();
        const response = await api.admin(route.method, concrete(route.path), {
          operator: operators[role],
          ...(route.body ? { body: {} } : {}),
        });
        const allowed = grantsRole(role, route.role);
        table.push(`${route.method} ${route.path} ${role} ${allowed ? 'allowed' : 'refused'}`);
        if (allowed) {
          const got = {
            route: `${route.method} ${route.path}`,
            role,
            refused: [401, 403].includes(response.status),
          };
          expect(got).toEqual({ ...got, refused: false });
        } else {
          expect({ route: `${route.method} ${route.path}`, role, answer: response.body }).toEqual({
            route: `${route.method} ${route.path}`,
            role,
            answer: {
              code: 403,
              data: null,
              error: `Forbidden: this needs the ${route.role} role (held by ${rolesGranting(route.role).join(', ')}); you are ${role}`,
            },
          });
          expect(await auditRows()).toBe(before);
        }
      }
    }
    // Spot checks of the matrix (docs/operators.md#roles).
    expect(table).toEqual(
      expect.arrayContaining([
        'POST /api/v1/admin/orgs/{orgId}/api-keys SUPPORT refused',
        'POST /api/v1/admin/orgs/{orgId}/api-keys TRADING_OPS refused',
        'POST /api/v1/admin/orgs/{orgId}/users/{orgUserId}/kyc/approve KYC_REVIEWER allowed',
        'POST /api/v1/admin/orgs/{orgId}/users/{orgUserId}/kyc/approve TRADING_OPS refused',
        'PUT /api/v1/admin/prices/{symbol} TRADING_OPS allowed',
        'PUT /api/v1/admin/prices/{symbol} KYC_REVIEWER refused',
        'PATCH /api/v1/admin/orgs/{orgId}/policy TRADING_OPS allowed',
        'POST /api/v1/admin/notices TRADING_OPS allowed',
        'POST /api/v1/admin/notices SUPPORT refused',
        'GET /api/v1/admin/audit SUPPORT allowed',
        'GET /api/v1/admin/orgs SUPPORT allowed',
        'GET /api/v1/admin/operators SUPPORT refused',
        'PATCH /api/v1/admin/operators/{id} KYC_REVIEWER refused',
      ]),
    );
  });

  it('the sensitive routes ask for a second factor within the step-up window', async () => {
    const sensitive = routes.filter((route) => route.stepUp).map((route) => `${route.method} ${route.path}`);
    expect(sensitive.sort()).toEqual([
      'PATCH /api/v1/admin/operators/{id}',
      'POST /api/v1/admin/operators',
      'POST /api/v1/admin/operators/{id}/disable',
      'POST /api/v1/admin/operators/{id}/reset',
      'POST /api/v1/admin/orgs/{orgId}/api-keys',
      'POST /api/v1/admin/orgs/{orgId}/oauth-clients',
      'POST /api/v1/admin/tokens',
    ]);
    const admin = await api.createOperator('ADMIN');
    const keys = async () =>
      Number((await api.rows<{ n: string }>('SELECT count(*) AS n FROM api_keys'))[0]!.n);
    const before = [await keys(), await auditRows()];
    const issue = () =>
      api.admin('POST', `/api/v1/admin/orgs/${orgId}/api-keys`, { operator: admin, body: {} });
    const refused = await issue();
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe(
      'Unauthorized: step_up_required: this action needs your second factor within the last 60 minutes: ' +
        'POST /api/v1/admin/session/step-up with a TOTP code (the CLI: --otp <code>), then retry',
    );
    expect(refused.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_user_authentication", error_description="a second factor is required", max_age=3600',
    );
    expect([await keys(), await auditRows()]).toEqual(before);

    // A second factor shown long ago does not count; one within the window does.
    const setSecondFactor = (minutesAgo: number) =>
      api.rows(
        "UPDATE operator_tokens SET second_factor_at = now() - $2 * interval '1 minute' WHERE id = $1",
        [admin.tokenId, minutesAgo],
      );
    await setSecondFactor(61);
    expect((await issue()).status).toBe(401);
    await setSecondFactor(59);
    expect((await issue()).status).toBe(200);
    expect(await keys()).toBe(before[0]! + 1);
  });
});
