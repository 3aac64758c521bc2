// The built package's public entry as an embedder meets it: the exports map (`types` first), require()
// and import() giving the same names with no side effect, deep imports refused, and TypeScript resolving
// the declarations through the map.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const packageDir = resolve(__dirname, '..');
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  main: string;
  types: string;
  exports: Record<string, unknown>;
};
const PUBLIC_NAMES = 'ConfigError,OperatorPriceVenue,createApp,createLogger,loadConfig';

const usage = `
import { createApp, createLogger, loadConfig, type AppConfig, type AppDependencies, type Venue } from '@svc/api';
const config: AppConfig = loadConfig({ NODE_ENV: 'test', MASTER_KEY: 'x', ADMIN_TOKEN: 'y' });
// @ts-expect-error the types are real: the config is read-only
config.port = 1;
const venue: Venue = { execute: (order) => Promise.resolve({ price: order.markPrice }) };
export async function start(deps: Omit<AppDependencies, 'venue' | 'logger'>): Promise<void> {
  const app = await createApp({ ...deps, venue, logger: createLogger('warn') });
  await app.listen({ port: 0 });
}
`;

/** A throwaway consumer with the built package linked into its node_modules, as an installer would. */
function consumer(type: 'module' | 'commonjs'): string {
  const dir = mkdtempSync(join(tmpdir(), `api-${type}-`));
  mkdirSync(join(dir, 'node_modules/@svc'), { recursive: true });
  symlinkSync(packageDir, join(dir, 'node_modules/@svc/api'), 'dir');
  symlinkSync(join(packageDir, 'node_modules/@types'), join(dir, 'node_modules/@types'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        strict: true,
        noEmit: true,
        types: ['node'],
        skipLibCheck: true,
        experimentalDecorators: true,
      },
      files: ['index.ts'],
    }),
  );
  writeFileSync(join(dir, 'index.ts'), usage);
  return dir;
}

describe('the built package @svc/api', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const node = (dir: string, args: string[]) =>
    execFileSync(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: 30_000 });

  it('has one entry besides package.json, `types` first, and main and types point at it', () => {
    expect(Object.keys(manifest.exports)).toEqual(['.', './package.json']);
    const root = manifest.exports['.'] as Record<string, string>;
    expect(root).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(Object.keys(root)[0]).toBe('types');
    expect([manifest.main, manifest.types]).toEqual([root.default, root.types]);
  });

  it('gives the same names to require() and import(), and importing it starts nothing', () => {
    const dir = consumer('commonjs');
    dirs.push(dir);
    // An ESM namespace of CommonJS adds `default` and `module.exports` (Node 24) to the names.
    const interop = `['default', 'module.exports', '__esModule']`;
    const probe = `console.log(Object.keys(api).filter((name) => !${interop}.includes(name)).sort().join())`;
    // The process must print only the probe and exit at once: no server, no database, no timer.
    expect(node(dir, ['-e', `const api = require('@svc/api'); ${probe}`])).toBe(`${PUBLIC_NAMES}\n`);
    expect(node(dir, ['--input-type=module', '-e', `import * as api from '@svc/api'; ${probe}`])).toBe(
      `${PUBLIC_NAMES}\n`,
    );
  });

  it('refuses deep imports of its internals', () => {
    const dir = consumer('commonjs');
    dirs.push(dir);
    const attempt = `try { require('@svc/api/dist/orders/order-math.js'); console.log('loaded') } catch (error) { console.log(error.code) }`;
    expect(node(dir, ['-e', attempt])).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED\n');
  });

  it('type-checks in an ESM consumer against dist/index.d.ts', () => {
    const dir = consumer('module');
    dirs.push(dir);
    let output: string;
    try {
      output = node(dir, [require.resolve('typescript/bin/tsc'), '-p', dir, '--listFiles']);
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
    }
    expect(output).not.toMatch(/error TS/);
    // TypeScript lists the file by its real path, behind the symlink.
    expect(output.split('\n')).toContain(join(packageDir, 'dist/index.d.ts'));
  }, 60_000);
});
