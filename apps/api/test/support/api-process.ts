// The built api as operators run it (`node apps/api/dist/main.js`), as child processes on one test database,
// and an organisation trading through them over signed HTTP, for the tests that kill, restart and race
// whole processes. Nothing is shared in memory between the processes and the test: only PostgreSQL and HTTP.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

import type { TestDatabase } from '@svc/db/testing';
import { type Order, signedRequestHeaders } from '@svc/protocol';

const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');

/** One master key and admin token for every process of a test file: they share the database. */
export const MASTER_KEY = randomBytes(32).toString('base64');
export const ADMIN_TOKEN = randomBytes(24).toString('hex');

export interface ApiProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  /** SIGTERM, and SIGKILL when it has not exited after 10 s; waits for the exit. */
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
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

export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  everyMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Starts main.js on `db` with `env` on top of a production configuration; resolves once it is ready. */
export async function startApi(db: TestDatabase, env: Record<string, string> = {}): Promise<ApiProcess> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the api first`);
  const port = await freePort();
  const child = spawn(process.env.SERVICE_NODE ?? process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      MASTER_KEY,
      ADMIN_TOKEN,
      DATA_DIR: '/nonexistent',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      OPERATOR_STEP_UP_MINUTES: '60',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await until(
      'the api to be ready',
      async () => {
        if (child.exitCode !== null) throw new Error(`the api exited: ${output}`);
        return (await fetch(`${baseUrl}/readyz`).catch(() => undefined))?.status === 200;
      },
      60_000,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { child, baseUrl, exited, output: () => output, stop };
}

export interface Answer<T> {
  readonly status: number;
  readonly data: T | null;
  readonly error: string | null;
}

export async function send<T>(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer<T>> {
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: body ?? null });
  const envelope = (await response.json()) as { data: T | null; error: string | null };
  return { status: response.status, data: envelope.data, error: envelope.error };
}

/** `data` of an answer that must be 200. */
function ok<T>(answer: Answer<T>, what: string): T {
  if (answer.status !== 200 || answer.data === null) {
    throw new Error(`${what}: ${answer.status} ${answer.error ?? ''}`);
  }
  return answer.data;
}

/**
 * An organisation with an API key, trading through whichever process a call names: users, orders, cancels
 * (signed), and the operator's prices (the bootstrapped ADMIN's personal token).
 */
export class ProcessTrading {
  private constructor(
    readonly db: TestDatabase,
    readonly orgId: number,
    private readonly operatorToken: string,
    private readonly credentials: { apiKey: string; apiSecret: string },
  ) {}

  /** Bootstraps the first ADMIN through `api`, then an organisation trading BTC and ETH with fees. */
  static async start(db: TestDatabase, api: ApiProcess): Promise<ProcessTrading> {
    const script = join(__dirname, '..', '..', '..', '..', 'scripts', 'bootstrap-operator.mjs');
    const { bootstrapOperator } = (await import(script)) as {
      bootstrapOperator: (url: string, token: string) => Promise<{ operatorToken: string }>;
    };
    const { operatorToken } = await bootstrapOperator(api.baseUrl, ADMIN_TOKEN);
    const admin = async (method: string, path: string, body: unknown) =>
      ok(
        await send<Record<string, unknown>>(
          api.baseUrl,
          method,
          path,
          { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
          JSON.stringify(body),
        ),
        `${method} ${path}`,
      );
    const org = await admin('POST', '/api/v1/admin/orgs/', {
      name: 'sweeping processes',
      kycDomain: 'example.com',
      plan: 'ENTERPRISE',
      supportEmails: ['support@example.com'],
    });
    const orgId = org.orgId as number;
    const key = await admin('POST', `/api/v1/admin/orgs/${orgId}/api-keys/`, { label: 'trading' });
    await admin('PATCH', `/api/v1/admin/orgs/${orgId}/policy/`, {
      enabledAssets: ['BTC', 'ETH'],
      commissionRate: 0.0015,
      vatRate: 0.21,
    });
    return new ProcessTrading(db, orgId, operatorToken, {
      apiKey: key.apiKey as string,
      apiSecret: key.apiSecret as string,
    });
  }

  /** Signed headers; every request here differs in its path or body, so no signature is sent twice. */
  private signed(path: string, body?: string): Record<string, string> {
    return {
      ...signedRequestHeaders({ path, body }, this.credentials),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    };
  }

  /** A new ACTIVE user with kyc and tnc; answers its orgUserId. */
  async user(api: ApiProcess): Promise<string> {
    const orgUserId = `u-${randomUUID()}`;
    const body = JSON.stringify({ orgUserId, kyc: true, tnc: true });
    ok(await send(api.baseUrl, 'POST', '/api/v1/user/', this.signed('/api/v1/user/', body), body), 'user');
    return orgUserId;
  }

  /** A user holding `quantity` of `asset`, as stored (a position without a buy). */
  async holder(api: ApiProcess, asset: string, quantity: string): Promise<string> {
    const orgUserId = await this.user(api);
    await this.db.dataSource.query(
      `INSERT INTO positions (user_id, asset, org_id, quantity)
       SELECT id, $3, org_id, $4 FROM users WHERE org_id = $1 AND org_user_id = $2`,
      [this.orgId, orgUserId, asset, quantity],
    );
    return orgUserId;
  }

  /** Places an order (BTC_EUR LIMIT BUY unless told) that must answer 200; answers its record. */
  async placed(api: ApiProcess, fields: Record<string, unknown>): Promise<Order> {
    const body = JSON.stringify({
      clientOrderId: randomUUID(),
      symbol: 'BTC_EUR',
      side: 'BUY',
      type: 'LIMIT',
      ...fields,
    });
    const path = '/api/v1/orders/';
    return ok(await send<Order>(api.baseUrl, 'POST', path, this.signed(path, body), body), 'order');
  }

  cancel(api: ApiProcess, id: number): Promise<Answer<Order>> {
    const path = `/api/v1/orders/${id}/`;
    return send<Order>(api.baseUrl, 'DELETE', path, this.signed(path));
  }

  /** The operator sets the pair's price through `api`, which sweeps the pair before it answers. */
  price(api: ApiProcess, symbol: string, price: number): Promise<Answer<unknown>> {
    return send(
      api.baseUrl,
      'PUT',
      `/api/v1/admin/prices/${symbol}/`,
      { authorization: `Bearer ${this.operatorToken}`, 'content-type': 'application/json' },
      JSON.stringify({ price }),
    );
  }

  /** Sets the price in the table alone, so that no sweep starts from the change itself. */
  async quietPrice(symbol: string, price: string): Promise<void> {
    await this.db.dataSource.query('UPDATE prices SET price = $2 WHERE symbol = $1', [symbol, price]);
  }

  rows<T>(sql: string, parameters: unknown[] = []): Promise<T[]> {
    return this.db.dataSource.query<T[]>(sql, parameters);
  }
}

/** Runs `work` over `items`, `width` at a time. */
export async function inParallel<I, O>(
  items: readonly I[],
  width: number,
  work: (item: I, index: number) => Promise<O>,
): Promise<O[]> {
  const results: O[] = new Array<O>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as I, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}
