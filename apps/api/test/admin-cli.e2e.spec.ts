// The admin CLI against the api it drives: every route of its client is one the api serves with a
// personal token (so renaming a route fails here, not in an operator's hands), and `npm run admin`'s launcher.
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

import { SECURITY_SCHEMES } from '../src/auth/decorators.js';
import { ADMIN_ROUTES } from '../src/cli/admin/client.js';
import { ApiFixture } from './support/app-fixture.js';

const execFileAsync = promisify(execFile);
const LAUNCHER = join(__dirname, '..', '..', '..', 'scripts', 'admin.mjs');

type OpenApi = {
  paths: Record<string, Record<string, { security?: unknown; parameters?: { name: string; in: string }[] }>>;
};

const runOn = (node: string, script: string, args: string[], env: Record<string, string> = {}) =>
  execFileAsync(node, [script, ...args], { env: { PATH: process.env.PATH ?? '', ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: unknown) => error as { code: number; stdout: string; stderr: string },
  );
const run = (script: string, args: string[], env: Record<string, string> = {}) =>
  runOn(process.execPath, script, args, env);

const TOOLCHAIN = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    toolchain: { node: string; testNodes: string[] };
  }
).toolchain;

/**
 * A Node of the oldest major the README supports (toolchain.testNodes[0]): from TEST_NODES, which
 * bootstrap sets to the matrix's binaries, else the system's.
 */
function oldestSupportedNode(): string {
  const major = TOOLCHAIN.testNodes[0]!.split('.')[0]!;
  const candidates = [...(process.env.TEST_NODES ?? '').split(delimiter), '/usr/bin/node'];
  const found = candidates.find(
    (node) =>
      node !== '' &&
      existsSync(node) &&
      execFileSync(node, ['--version'], { encoding: 'utf8' }).startsWith(`v${major}.`),
  );
  if (!found) throw new Error(`no Node ${major} found: set TEST_NODES as npm test does`);
  return found;
}

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

  it("runs on the oldest supported Node too, on the toolchain's Node when that one lacks what it needs", async () => {
    const result = await runOn(
      oldestSupportedNode(),
      LAUNCHER,
      ['prices', 'set', 'BTC_EUR', '52000.12345678'],
      {
        SVC_URL: api.baseUrl,
        SVC_OPERATOR_TOKEN: api.adminToken,
      },
    );
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout).toContain('52000.12345678');
    expect(await api.rows("SELECT price::text FROM prices WHERE symbol = 'BTC_EUR'")).toEqual([
      { price: '52000.12345678' },
    ]);
  });

  it('on an older Node without the toolchain installed, npm run admin says how to get it', async () => {
    // A checkout that is built but was never set up by bootstrap (no .tools/).
    const root = mkdtempSync(join(tmpdir(), 'svc-admin-launcher-'));
    mkdirSync(join(root, 'scripts'));
    mkdirSync(join(root, 'apps', 'api', 'dist', 'cli'), { recursive: true });
    for (const file of ['admin.mjs', 'tools.mjs']) {
      copyFileSync(join(LAUNCHER, '..', file), join(root, 'scripts', file));
    }
    copyFileSync(join(__dirname, '..', '..', '..', 'package.json'), join(root, 'package.json'));
    writeFileSync(join(root, 'apps', 'api', 'dist', 'cli', 'admin.js'), 'process.exit(7);\n');
    const node = oldestSupportedNode();
    const result = await runOn(node, join(root, 'scripts', 'admin.mjs'), ['orgs', 'list']);
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 1, stdout: '' });
    expect(result.stderr).toBe(
      `admin: the CLI needs Node 22 or later (this is ${version}): run \`npm start\` or \`npm test\` ` +
        `once, which installs Node ${TOOLCHAIN.node} into .tools/, or run it with a newer Node\n`,
    );
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
