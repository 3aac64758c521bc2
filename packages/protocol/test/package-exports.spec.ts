// The built package, as a consumer meets it: require() and import() on this Node, and TypeScript
// resolving the right declaration files for each (exports map with `types` first).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const packageDir = resolve(__dirname, '..');
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
};
const tsc = require.resolve('typescript/bin/tsc');

/** A throwaway consumer project with @svc/protocol linked into its node_modules. */
function consumer(type: 'module' | 'commonjs', source: string): string {
  const dir = mkdtempSync(join(tmpdir(), `protocol-${type}-`));
  mkdirSync(join(dir, 'node_modules/@svc'), { recursive: true });
  symlinkSync(packageDir, join(dir, 'node_modules/@svc/protocol'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noEmit: true,
        types: [],
      },
      files: ['index.ts'],
    }),
  );
  writeFileSync(join(dir, 'index.ts'), source);
  return dir;
}

function node(dir: string, args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: dir, encoding: 'utf8' });
}

const usage = `
import { ALL_SCOPES, canonicalizeJson, signRequest, type Scope } from '@svc/protocol';
const scope: Scope = ALL_SCOPES[0] ?? 'BASE_MODULE:READ';
// @ts-expect-error the types are real: a misspelt scope does not type-check
const wrong: Scope = 'BASE_MODULE:ADMIN';
const signature: string = signRequest({ path: '/api/v1/org/', timestamp: '1' }, 'secret');
export const used = [scope, wrong, signature, canonicalizeJson('{"a": 1.0}')];
`;

/** The same few calls, printed as JSON, whichever way `p` was loaded. */
const probe = `console.log(JSON.stringify([
  p.canonicalizeJson('{"10":1.50,"2":2}'),
  p.signRequest({ path: '/x/', timestamp: '1' }, 's'),
  Object.keys(p).sort().join(),
]))`;

describe('the built package', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('lists `types` first in every condition of the exports map', () => {
    const root = manifest.exports['.'] as Record<string, Record<string, string>>;
    expect(Object.keys(root)).toEqual(['import', 'require']);
    for (const condition of Object.values(root)) expect(Object.keys(condition)[0]).toBe('types');
  });

  it('loads with require() and with import(), and both give the same API and results', () => {
    const dir = consumer('commonjs', usage);
    dirs.push(dir);
    const viaRequire = node(dir, ['-e', `const p = require('@svc/protocol'); ${probe}`]);
    const viaImport = node(dir, [
      '--input-type=module',
      '-e',
      `import * as p from '@svc/protocol'; ${probe}`,
    ]);
    const [canonical, signature, names] = JSON.parse(viaRequire) as [string, string, string];
    expect(canonical).toBe('{"10":1.5,"2":2}');
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(names).toContain('verifyWebhookSignature');
    expect(viaImport).toBe(viaRequire);
  });

  it('serves the published test vectors', () => {
    const dir = consumer('commonjs', usage);
    dirs.push(dir);
    const count = node(dir, [
      '-e',
      "console.log(require('@svc/protocol/vectors/request-signing.json').vectors.length)",
    ]);
    expect(Number(count)).toBeGreaterThanOrEqual(30);
  });

  it.each([
    ['module', 'dist/esm/index.d.ts'],
    ['commonjs', 'dist/cjs/index.d.ts'],
  ] as const)('type-checks in a %s consumer against %s', (type, declarations) => {
    const dir = consumer(type, usage);
    dirs.push(dir);
    const files = execFileSync(process.execPath, [tsc, '-p', dir, '--listFiles'], { encoding: 'utf8' });
    // TypeScript lists the file by its real path, behind the symlink.
    expect(files.split('\n')).toContain(join(packageDir, declarations));
  });
});
