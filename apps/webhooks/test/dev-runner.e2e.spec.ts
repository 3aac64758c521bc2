// `npm start`'s runner (scripts/dev-runner.mjs) with the built api and worker: one per data folder, and
// when a child dies it says which and stops everything instead of hanging.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const RUNNER = join(ROOT, 'scripts', 'dev-runner.mjs');

interface Run {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

function startRunner(dataDir: string, port: number): Run {
  const child = spawn(process.execPath, [RUNNER], {
    // WORKER_PORT 0: a free port, so a developer's npm start (on 3001) or another test cannot clash.
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      WORKER_PORT: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Children of `parent` whose command line mentions `text`. */
function childrenOf(parent: number, text: string): number[] {
  return readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8')
    .trim()
    .split(' ')
    .filter((pid) => pid !== '')
    .map(Number)
    .filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text));
}

describe('scripts/dev-runner.mjs', () => {
  let dataDir: string;
  let run: Run | undefined;

  beforeAll(() => {
    for (const main of [
      'apps/api/dist/main.js',
      'apps/webhooks/dist/main.js',
      'packages/db/dist/dev-postgres.js',
    ])
      if (!existsSync(join(ROOT, main))) throw new Error(`${main} is missing: build first`);
  });
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-runner-'));
    // The embedded PostgreSQL runs as the OS user `postgres`, which must reach DATA_DIR/postgres.
    chmodSync(dataDir, 0o755);
  });
  afterEach(async () => {
    if (run?.child.exitCode === null) {
      run.child.kill('SIGTERM');
      await run.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes over a stale lock, refuses a second runner on the folder, and stops everything when the worker dies', async () => {
    writeFileSync(join(dataDir, 'npm-start.lock'), '2147483\n');
    run = startRunner(dataDir, 39_000 + Math.floor(Math.random() * 1000));
    const first = run;
    await waitFor('the api', () => first.output().includes('API listening on'), 75_000);
    expect(first.output()).toContain('removing the stale lock of pid 2147483');
    // The worker says where operators reach it, beside the api's address, and answers there.
    await waitFor('the worker', () => first.output().includes('Webhooks worker listening on'), 20_000);
    const opsUrl =
      /Webhooks worker listening on (http:\/\/127\.0\.0\.1:\d+) \(\/healthz, \/readyz, \/metrics\)/.exec(
        first.output(),
      )?.[1];
    expect(opsUrl).toBeDefined();
    expect((await fetch(`${opsUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${opsUrl}/metrics`)).status).toBe(200);
    expect(readFileSync(join(dataDir, 'npm-start.lock'), 'utf8').trim()).toBe(String(first.child.pid));

    const second = startRunner(dataDir, 1);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`another npm start (pid ${first.child.pid}) is running on ${dataDir}`);

    await waitFor(
      'the worker',
      () => childrenOf(first.child.pid!, 'webhooks/dist/main.js').length > 0,
      10_000,
    );
    const [worker] = childrenOf(first.child.pid!, 'webhooks/dist/main.js');
    process.kill(worker!, 'SIGKILL');
    expect(await first.exited).toBe(1);
    expect(first.output()).toContain(
      'npm start: the webhooks worker exited by itself (signal SIGKILL); stopping everything',
    );
    expect(first.output()).toContain('dev-postgres: stopping PostgreSQL');
    expect(existsSync(join(dataDir, 'npm-start.lock'))).toBe(false);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 150_000);

  it('says so and stops the services when PostgreSQL dies under dev-postgres', async () => {
    run = startRunner(dataDir, 40_000 + Math.floor(Math.random() * 1000));
    const current = run;
    // As the test above: a fresh data folder's first start, beside the rest of npm test, can take a minute.
    await waitFor('the api', () => current.output().includes('API listening on'), 75_000);
    const postmaster = Number(
      readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    process.kill(postmaster, 'SIGKILL');
    expect(await current.exited).toBe(1);
    expect(current.output()).toContain(
      'dev-postgres: PostgreSQL exited by itself (signal SIGKILL); stopping',
    );
    expect(current.output()).toContain('npm start: the development PostgreSQL exited by itself (code 1)');
  }, 120_000);
});
