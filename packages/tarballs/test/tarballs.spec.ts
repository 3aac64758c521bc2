// @svc/protocol and @svc/sdk as a user gets them: packed once per run by scripts/pack.mjs (what `npm run
// pack` runs after the build; `pnpm pack` rewrites the `workspace:` ranges), installed together into a
// project outside the workspace by plain `npm install <file>` with --offline and an empty cache (so any
// dependency that would come from the registry fails the install; the SDK's one outside dependency is
// packed from the workspace's copy), then each package's README examples (ESM and CJS) and the `svc`
// command run on every Node of TEST_NODES, and TypeScript resolves the installed declarations.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { basename, delimiter, dirname, join, resolve } from 'node:path';

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  files?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const root = resolve(__dirname, '..', '..', '..');
const packages = ['protocol', 'sdk'] as const;
type Package = (typeof packages)[number];
const nodes = [
  ...new Set(process.env.TEST_NODES?.split(delimiter).filter(Boolean) ?? [process.execPath]),
].map((node) => ({ node, version: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim() }));
const tsc = require.resolve('typescript/bin/tsc');

/** Runs a command and answers its stdout; a failure carries the command's own output. */
function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): string {
  try {
    return execFileSync(command, args, { ...options, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`, {
      cause: error,
    });
  }
}

function readManifest(file: string): Manifest {
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

/** npm as a user outside the workspace runs it: none of the npm_* settings pnpm and turbo export. */
function npmEnv(dir: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const [user, global] = [join(dir, 'user.npmrc'), join(dir, 'global.npmrc')];
  for (const npmrc of [user, global]) writeFileSync(npmrc, '');
  return {
    ...env,
    npm_config_userconfig: user,
    npm_config_globalconfig: global,
    npm_config_cache: join(dir, 'npm-cache'),
    npm_config_update_notifier: 'false',
  };
}

/** Private workspace packages: none may be named in a packed manifest. */
function privateNames(): Set<string> {
  const names = new Set<string>();
  for (const group of ['apps', 'packages']) {
    for (const name of readdirSync(join(root, group))) {
      const file = join(root, group, name, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = readManifest(file);
      if (manifest.private) names.add(manifest.name);
    }
  }
  names.add(readManifest(join(root, 'bench/package.json')).name);
  return names;
}

/** The README's runnable examples: `js` blocks whose first line is `// example.mjs` or `// example.cjs`. */
function examples(readme: string): Record<'mjs' | 'cjs', string> {
  const found: Partial<Record<'mjs' | 'cjs', string>> = {};
  for (const match of readme.matchAll(/```js\n\/\/ example\.(mjs|cjs)\n([\s\S]*?)```/g)) {
    found[match[1] as 'mjs' | 'cjs'] = match[2]!;
  }
  if (!found.mjs || !found.cjs) throw new Error('the README has no `// example.mjs` and `// example.cjs`');
  return found as Record<'mjs' | 'cjs', string>;
}

/** What an example prints: the comment after each `console.log(...);`. */
function expectedOutput(source: string): string[] {
  return [...source.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((match) => match[1]!);
}

describe('the packed packages', () => {
  let dir: string;
  let project: string;
  const packed = {} as Record<Package, { tarball: string; manifest: Manifest; files: string[] }>;
  let parserTarball: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-tarballs-'));
    project = join(dir, 'project');
    mkdirSync(project);
    const out = join(dir, 'packed');
    run(process.execPath, [join(root, 'scripts/pack.mjs'), out]);
    for (const name of packages) {
      const found = readdirSync(out).filter((entry) => entry.startsWith(`svc-${name}-`));
      if (found.length !== 1) throw new Error(`scripts/pack.mjs wrote ${found.length} svc-${name} tarballs`);
      const filename = join(out, found[0]!);
      const unpacked = join(dir, 'unpacked', name);
      mkdirSync(unpacked, { recursive: true });
      run('tar', ['-xzf', filename, '-C', unpacked]);
      const files = readdirSync(join(unpacked, 'package'), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name).slice(join(unpacked, 'package').length + 1))
        .sort();
      packed[name] = {
        tarball: filename,
        manifest: readManifest(join(unpacked, 'package/package.json')),
        files,
      };
    }
    // The SDK's one outside dependency, packed from the copy the workspace installed (so the install
    // stays offline): the same files as the registry's tarball.
    const parser = dirname(
      createRequire(join(root, 'packages/sdk/package.json')).resolve('eventsource-parser/package.json'),
    );
    const [parserPack] = JSON.parse(
      run('npm', ['pack', parser, '--json', '--ignore-scripts', '--pack-destination', join(dir, 'packed')], {
        cwd: dir,
        env: npmEnv(dir),
      }),
    ) as [{ filename: string }];
    parserTarball = join(dir, 'packed', parserPack.filename);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'outside', version: '1.0.0', private: true }),
    );
    run(
      'npm',
      [
        'install',
        '--offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        packed.protocol.tarball,
        packed.sdk.tarball,
        parserTarball,
      ],
      { cwd: project, env: npmEnv(dir) },
    );
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(packages)('%s: no workspace: ranges, no private packages, an MIT license', (name) => {
    const { manifest } = packed[name];
    expect(JSON.stringify(manifest)).not.toContain('workspace:');
    expect(manifest.license).toBe('MIT');
    expect(manifest.private).toBeUndefined();
    const privates = privateNames();
    for (const field of [
      'dependencies',
      'devDependencies',
      'peerDependencies',
      'optionalDependencies',
    ] as const) {
      for (const dependency of Object.keys(manifest[field] ?? {})) expect(privates).not.toContain(dependency);
    }
  });

  it('sdk: depends on the protocol (a range the packed protocol satisfies) and the pinned SSE parser only', () => {
    expect(packed.protocol.manifest.dependencies).toBeUndefined();
    expect(packed.sdk.manifest.dependencies).toEqual({
      '@svc/protocol': `^${packed.protocol.manifest.version}`,
      'eventsource-parser': '3.1.1',
    });
  });

  it.each(packages)('%s: ships the builds, sources, README, LICENSE and CHANGELOG, nothing else', (name) => {
    const { files, manifest } = packed[name];
    const allowed =
      /^(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/(esm|cjs)\/.+|src\/.+\.ts|vectors\/.+)$/;
    expect(files.filter((file) => !allowed.test(file))).toEqual([]);
    expect(files.filter((file) => /\.(spec|test)\./.test(file))).toEqual([]);
    if (name === 'sdk') expect(files.filter((file) => file.startsWith('vectors/'))).toEqual([]);
    for (const file of ['LICENSE', 'README.md', 'CHANGELOG.md', 'dist/esm/index.js', 'dist/cjs/index.js']) {
      expect(files).toContain(file);
    }
    const changelog = readFileSync(join(dir, 'unpacked', name, 'package/CHANGELOG.md'), 'utf8');
    expect(changelog).toContain(`\n## ${manifest.version}\n`);
    const license = readFileSync(join(dir, 'unpacked', name, 'package/LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n/);
  });

  it('installed offline: the two packages and the SSE parser, nothing else, the protocol once', () => {
    expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual([
      '@svc',
      'eventsource-parser',
    ]);
    expect(readdirSync(join(project, 'node_modules/@svc')).sort()).toEqual(['protocol', 'sdk']);
    const tree = JSON.parse(run('npm', ['ls', '--all', '--json'], { cwd: project, env: npmEnv(dir) })) as {
      dependencies: Record<string, { version: string; dependencies?: Record<string, unknown> }>;
    };
    expect(tree.dependencies['@svc/protocol']?.version).toBe(packed.protocol.manifest.version);
    expect(Object.keys(tree.dependencies['@svc/sdk']?.dependencies ?? {}).sort()).toEqual([
      '@svc/protocol',
      'eventsource-parser',
    ]);
  });

  it('`npx svc --help` in the project runs the installed command, fetching nothing', () => {
    const output = run('npx', ['--no', '--offline', 'svc', '--help'], { cwd: project, env: npmEnv(dir) });
    expect(output).toContain('Usage: svc <command> [options]');
    expect(output).toContain('listen');
  });

  it('the SDK README leads with `npm run pack` and installing the two tarballs it writes', () => {
    const readme = readFileSync(join(root, 'packages/sdk/README.md'), 'utf8');
    // The first section, and its first block.
    expect(/^## .*$/m.exec(readme)?.[0]).toBe('## Install');
    const install = /^## Install\n\n```sh\n([\s\S]*?)```/m.exec(readme)?.[1] ?? '';
    expect(install).toMatch(/^npm run pack\b/m);
    const [protocol, sdk] = packages.map((name) =>
      `dist-packages/${basename(packed[name].tarball)}`.replaceAll('.', '\\.'),
    );
    expect(install).toMatch(new RegExp(`^npm install \\S*${protocol!} \\S*${sdk!}$`, 'm'));
  });

  describe.each(nodes)('on Node $version', ({ node }) => {
    it("runs the sdk's `svc` command from node_modules/.bin", () => {
      const output = run(node, [join(project, 'node_modules/.bin/svc'), 'listen', '--help'], {
        cwd: project,
      });
      expect(output).toContain('Usage: svc listen --forward-to <url> [options]');
    });

    it.each(packages)('runs the %s README examples as ESM and as CJS', (name) => {
      const readme = readFileSync(join(project, 'node_modules/@svc', name, 'README.md'), 'utf8');
      for (const [kind, source] of Object.entries(examples(readme))) {
        const file = join(project, `${name}-example.${kind}`);
        writeFileSync(file, source);
        const output = run(node, [file], { cwd: project });
        expect({ kind, output: output.trimEnd().split('\n') }).toEqual({
          kind,
          output: expectedOutput(source),
        });
      }
    });
  });

  it('type-checks an ESM and a CJS consumer against the installed declarations', () => {
    const usage = `
import { SvcClient, verifyWebhook, type Order } from '@svc/sdk';
import { signRequest, type Scope } from '@svc/protocol';
const client = new SvcClient({ baseUrl: 'https://api.example.com', apiKey: 'pk', apiSecret: 'sk' });
const scope: Scope = 'BASE_MODULE:READ';
// @ts-expect-error the types are real: a misspelt scope does not type-check
const wrong: Scope = 'BASE_MODULE:ADMIN';
export async function latest(): Promise<Order> {
  return client.orders.get(1);
}
export const used = [scope, wrong, verifyWebhook, signRequest({ path: '/', timestamp: '1' }, 's')];
`;
    writeFileSync(join(project, 'esm.mts'), usage);
    writeFileSync(join(project, 'cjs.cts'), usage);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          // The SDK's declarations use node:http and fetch; a user adds @types/node.
          typeRoots: [join(__dirname, '..', 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['esm.mts', 'cjs.cts'],
      }),
    );
    const listed = run(process.execPath, [tsc, '-p', project, '--listFiles']);
    for (const name of packages) {
      for (const build of ['esm', 'cjs']) {
        expect(listed.split('\n')).toContain(
          join(project, 'node_modules/@svc', name, 'dist', build, 'index.d.ts'),
        );
      }
    }
  });
});
