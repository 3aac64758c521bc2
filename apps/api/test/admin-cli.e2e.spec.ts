// The admin CLI against the api it drives: every route of its client is one the api serves with a
// personal token (so renaming a route fails here, not in an operator's hands), and `npm run admin`'s launcher.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { SECURITY_SCHEMES } from '../src/auth/decorators.js';
import { ADMIN_ROUTES } from '../src/cli/admin/client.js';
import { ApiFixture } from './support/app-fixture.js';

const execFileAsync = promisify(execFile);
const LAUNCHER = join(__dirname, '..', '..', '..', 'scripts', 'admin.mjs');

type OpenApi = {
  paths: Record<string, Record<string, { security?: unknown; parameters?: { name: string; in: string }[] }>>;
};

const run = (script: string, args: string[], env: Record<string, string> = {}) =>
  execFileAsync(process.execPath, [script, ...args], { env: { PATH: process.env.PATH ?? '', ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: unknown) => error as { code: number; stdout: string; stderr: string },
  );

describe('the admin CLI and the api', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await ApiFixture.start();
  });
  afterAll(() => api.close());

  it.each(Object.entries(ADMIN_ROUTES))(
    "client route %s is served with the same method and path, a personal token and the path's parameters",
    async (_name, route) => {
      const document = (await api.request('GET', '/openapi.json')).body as unknown as OpenApi;
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      expect({ route, tokenTaken: operation?.security }).toEqual({
        route,
        tokenTaken: expect.arrayContaining([{ [SECURITY_SCHEMES.operatorToken]: [] }]) as unknown,
      });
      const inPath = (operation?.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect(inPath.sort()).toEqual([...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort());
    },
  );

  it('npm run admin runs the built CLI with its arguments', async () => {
    const result = await run(LAUNCHER, ['orgs', 'list', '--json'], {
      SVC_URL: api.baseUrl,
      SVC_OPERATOR_TOKEN: api.adminToken,
    });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toMatchObject({ items: expect.any(Array) as unknown[] });
  });

  it('npm run admin before the first build says how to build, without a stack', async () => {
    // The launcher in a checkout without apps/api/dist.
    const root = mkdtempSync(join(tmpdir(), 'svc-admin-launcher-'));
    mkdirSync(join(root, 'scripts'));
    copyFileSync(LAUNCHER, join(root, 'scripts', 'admin.mjs'));
    const result = await run(join(root, 'scripts', 'admin.mjs'), ['orgs', 'list']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'admin: the CLI is not built yet: run `npm start` or `npm test` once (or `pnpm turbo run build`), ' +
        'then `npm run admin -- --help`\n',
    );
  });
});
