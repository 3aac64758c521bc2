// The event stream on the built service as operators run it: two `node apps/api/dist/main.js` processes on
// one PostgreSQL. An event written through one reaches a stream held by the other (LISTEN/NOTIFY, nothing
// shared in memory); SIGTERM ends the stream cleanly and the process exits; the client resumes on the
// other process with Last-Event-ID, missing nothing and receiving nothing twice.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { OpenAPIObject } from '@nestjs/swagger';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import { signedRequestHeaders } from '@svc/protocol';

import { EventStreamClient } from './support/event-stream-client.js';
import { OpenApiContract } from './support/openapi-contract.js';

const MAIN = join(__dirname, '..', 'dist', 'main.js');
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const MASTER_KEY = randomBytes(32).toString('base64');

interface Api {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly exited: Promise<number | null>;
  output(): string;
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

async function until(
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

async function startApi(databaseUrl: string, dataDir: string): Promise<Api> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      MASTER_KEY,
      ADMIN_TOKEN,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      EVENT_STREAM_HEARTBEAT_MS: '500',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  await until(
    'the api to be ready',
    async () => {
      if (child.exitCode !== null) throw new Error(`the api exited: ${output}`);
      return (await fetch(`${baseUrl}/readyz`).catch(() => undefined))?.status === 200;
    },
    30_000,
  );
  return { child, baseUrl, exited, output: () => output };
}

/** `data` of a 200 answer. */
async function call<T>(url: string, init: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

describe('the event stream across two api processes', () => {
  let db: TestDatabase;
  let dataDir: string;
  let a: Api;
  let b: Api;
  let credentials: { apiKey: string; apiSecret: string };
  let orgId: number;
  let contract: OpenApiContract;
  let timestampOffset = 0;

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the api first`);
    db = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'svc-stream-'));
    [a, b] = await Promise.all([startApi(db.url, dataDir), startApi(db.url, dataDir)]);
    // ADMIN_TOKEN only bootstraps the first ADMIN; the organisation is made with their personal token.
    const script = join(__dirname, '..', '..', '..', 'scripts', 'bootstrap-operator.mjs');
    const { bootstrapOperator } = (await import(script)) as {
      bootstrapOperator: (url: string, token: string) => Promise<{ operatorToken: string }>;
    };
    const { operatorToken } = await bootstrapOperator(a.baseUrl, ADMIN_TOKEN);
    const admin = (path: string, body: unknown) =>
      call<Record<string, unknown>>(`${a.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const org = await admin('/api/v1/admin/orgs/', {
      name: 'stream processes',
      kycDomain: 'example.com',
      plan: 'STANDARD',
      supportEmails: ['support@example.com'],
    });
    orgId = org.orgId as number;
    const key = await admin(`/api/v1/admin/orgs/${orgId}/api-keys/`, { label: 'stream' });
    credentials = { apiKey: key.apiKey as string, apiSecret: key.apiSecret as string };
    contract = new OpenApiContract(
      (await (await fetch(`${a.baseUrl}/openapi.json`)).json()) as OpenAPIObject,
    );
  }, 60_000);
  afterAll(async () => {
    for (const api of [a, b]) {
      if (api.child.exitCode === null) {
        api.child.kill('SIGTERM');
        await api.exited;
      }
    }
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Signed headers; distinct timestamps, since each signature is accepted once. */
  const signed = (path: string, body?: string) => ({
    ...signedRequestHeaders(
      { path, body, timestamp: String(Math.floor(Date.now() / 1000) + timestampOffset++) },
      credentials,
    ),
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  });

  const createUser = async (api: Api, orgUserId: string): Promise<string> => {
    const body = JSON.stringify({ orgUserId, kyc: false, tnc: true });
    await call(`${api.baseUrl}/api/v1/user/`, {
      method: 'POST',
      headers: signed('/api/v1/user/', body),
      body,
    });
    const [row] = await db.dataSource.query<{ id: string }[]>(
      "SELECT id FROM events WHERE org_id = $1 AND data->>'orgUserId' = $2",
      [orgId, orgUserId],
    );
    return row!.id;
  };

  const stream = (api: Api, headers: Record<string, string> = {}) =>
    EventStreamClient.open(
      api.baseUrl,
      '/api/v1/events/stream',
      { ...signed('/api/v1/events/stream'), ...headers },
      contract,
    );

  it('delivers on B what was written through A; on SIGTERM B ends the stream and exits; A resumes it', async () => {
    const onB = await stream(b);
    const first = [await createUser(a, 'proc-1'), await createUser(a, 'proc-2')];
    await onB.untilMessages(2);
    expect(onB.ids).toEqual(first);
    await onB.until((c) => c.frames.some((f) => f.text === 'heartbeat'), 'a heartbeat');

    const sigterm = Date.now();
    b.child.kill('SIGTERM');
    await onB.ended;
    expect(onB.frames.at(-1)).toEqual({ kind: 'comment', text: 'closing: reconnect with Last-Event-ID' });
    expect(await b.exited).toBe(0);
    expect(Date.now() - sigterm).toBeLessThan(10_000);
    expect(await db.dataSource.query('SELECT id FROM event_streams WHERE org_id = $1', [orgId])).toEqual([]);

    const meanwhile = await createUser(a, 'proc-3');
    const onA = await stream(a, { 'last-event-id': onB.ids.at(-1)! });
    const later = await createUser(a, 'proc-4');
    await onA.untilMessages(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([...onB.ids, ...onA.ids]).toEqual([...first, meanwhile, later]);
    await onA.close();
  }, 60_000);
});
