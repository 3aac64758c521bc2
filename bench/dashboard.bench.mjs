// The organisation dashboard with real volumes: how long each page takes over HTTP, signed in with a
// dashboard session cookie, for an organisation with 10,000 users, 100,000 orders and 1,000,000 events
// (each with its webhook attempt), beside two other organisations with a fifth of that each, seeded after
// it (higher ids, so every newest-first read has other organisations' rows to skip). One embedded
// PostgreSQL in a temporary folder; the organisations come from the admin routes, the volumes from
// set-based SQL (lib/dashboard-seed.mjs), then VACUUM ANALYZE. Each round starts the api afresh from its
// public entry (lib/api-server.mjs, a child process), signs in by link as the organisation's backend and
// a browser would, then loads every page once (the first load: a cold request after start) and
// BENCH_LOADS more times (warm); figures are medians over BENCH_ROUNDS rounds.
// The console's home (every organisation's charts and waiting work) and KYC queue search are timed the
// same way, signed in as the bootstrapped operator. Last, the events export of the measured organisation
// (1,000,000 rows as CSV) from a fresh api: its time, size and the api process's peak RSS (VmHWM).
// Run after a build: node bench/dashboard.bench.mjs. Targets: every page's first load under 1 s, every
// list (users, orders, API keys, events) under 300 ms. Knobs: BENCH_ROUNDS (3), BENCH_LOADS (5), BENCH_SCALE (1: the volumes above),
// BENCH_EXPLAIN=1 (prints EXPLAIN ANALYZE of the dashboard's heavier statements before timing).
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { startEmbeddedPostgres } from '@svc/db/dev';
import { ALL_SCOPES } from '@svc/protocol';
import pg from 'pg';

import { explain } from './lib/dashboard-explain.mjs';
import { orgUserIdOf, seedVolumes } from './lib/dashboard-seed.mjs';
import { apiEnv } from './lib/http-bench.mjs';
import { call, seed } from './lib/seed.mjs';
import { bootstrapOperator } from '../scripts/bootstrap-operator.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LOADS = Number(process.env.BENCH_LOADS ?? 5);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const VOLUMES = { users: 10_000 * SCALE, orders: 100_000 * SCALE, events: 1_000_000 * SCALE };
const OTHER_VOLUMES = { users: 2_000 * SCALE, orders: 20_000 * SCALE, events: 200_000 * SCALE };
const PAGE_TARGET_MS = 1000;
const LIST_TARGET_MS = 300;

const env = apiEnv();
const { generate } = createRequire(new URL('../apps/api/package.json', import.meta.url))('otplib');

const dir = await mkdtemp(join(tmpdir(), 'svc-dashboard-bench-'));
const postgres = await startEmbeddedPostgres({ dir, persistent: false });
try {
  await postgres.createDatabase('bench_dashboard');
  const url = postgres.url('bench_dashboard');
  const { org, pages, operator } = await prepare(url);
  if (process.env.BENCH_EXPLAIN === '1') await explain(url, org);
  const samples = new Map(pages.map((page) => [page.path, { first: [], warm: [] }]));
  let consoleCookie;
  for (let round = 0; round < ROUNDS; round++) {
    const server = await startServer(url);
    try {
      // The console's session lives in the database: one sign-in (one TOTP code) serves every round.
      consoleCookie ??= await consoleSignIn(server.base, operator);
      const cookies = { dashboard: await signIn(server.base, org.token), console: consoleCookie };
      const cookieOf = (page) => cookies[page.path.startsWith('/console') ? 'console' : 'dashboard'];
      for (const page of pages)
        samples.get(page.path).first.push(await load(server.base, page.path, cookieOf(page)));
      for (let i = 0; i < LOADS; i++) {
        for (const page of pages)
          samples.get(page.path).warm.push(await load(server.base, page.path, cookieOf(page)));
      }
    } finally {
      await server.stop();
    }
  }
  report(pages, samples);
  await measureExport(url, org);
} finally {
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}

/**
 * The organisations through the admin routes (an api started for it, stopped after), the volumes by SQL,
 * statistics gathered. Answers the measured organisation's id and token, and the pages to load.
 */
async function prepare(url) {
  const server = await startServer(url);
  let org;
  let operator;
  const others = [];
  try {
    // ADMIN_TOKEN only bootstraps the first ADMIN; the organisations are made with their personal token.
    operator = await bootstrapOperator(server.base, env.ADMIN_TOKEN);
    const { operatorToken } = operator;
    // A dashboard session may show only the pages its creator's scopes open: the token holds them all.
    org = await seed(server.base, operatorToken, {
      name: 'dashboard bench',
      userIds: [],
      scope: ALL_SCOPES.join(' '),
    });
    for (const name of ['other one', 'other two'])
      others.push(await seed(server.base, operatorToken, { name, userIds: [] }));
    org.orgId = await orgIdOf(server.base, org.token);
    for (const other of others) other.orgId = await orgIdOf(server.base, other.token);
  } finally {
    await server.stop();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    const took = await seedVolumes(client, org.orgId, VOLUMES);
    for (const other of others) await seedVolumes(client, other.orgId, OTHER_VOLUMES);
    await client.query('VACUUM ANALYZE');
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.log(`seeded in ${seconds} s (measured organisation, s per table: ${JSON.stringify(took)})`);
    const counts = await client.query(
      `SELECT (SELECT count(*) FROM users WHERE org_id = $1)::int AS users,
              (SELECT count(*) FROM orders WHERE org_id = $1)::int AS orders,
              (SELECT count(*) FROM events WHERE org_id = $1)::int AS events,
              (SELECT count(*) FROM webhook_attempts WHERE org_id = $1)::int AS attempts,
              (SELECT count(*) FROM events)::int AS all_events`,
      [org.orgId],
    );
    console.log('measured organisation:', JSON.stringify(counts.rows[0]));
    const [{ id: orderId }] = (
      await client.query('SELECT max(id) AS id FROM orders WHERE org_id = $1', [org.orgId])
    ).rows;
    const [{ id: midUser }] = (
      await client.query('SELECT id FROM users WHERE org_id = $1 ORDER BY id OFFSET $2 LIMIT 1', [
        org.orgId,
        VOLUMES.users / 2,
      ])
    ).rows;
    const [{ id: midOrder }] = (
      await client.query('SELECT id FROM orders WHERE org_id = $1 ORDER BY id OFFSET $2 LIMIT 1', [
        org.orgId,
        VOLUMES.orders / 2,
      ])
    ).rows;
    // The newest FAILED event, given the four scheduled attempts and a redelivery a failed event has.
    const [failed] = (
      await client.query(
        `SELECT id, created_at, updated_at FROM events WHERE org_id = $1 AND status = 'FAILED'
          ORDER BY created_at DESC LIMIT 1`,
        [org.orgId],
      )
    ).rows;
    await client.query(
      `INSERT INTO webhook_attempts (event_id, org_id, url, num_retries, manual, attempted_at, duration_ms,
                                     status_code, error_kind, response, delivered, event_updated_at)
       SELECT $1, $2, 'https://hooks.example.com/svc', n, n = 4, $3::timestamptz + n * interval '1 minute', 80,
              NULL, 'timeout', 'no status line within 1000 ms', false, $4
         FROM generate_series(0, 4) n`,
      [failed.id, org.orgId, failed.created_at, failed.updated_at],
    );
    // A page in the middle of the event log: the cursor of the newest-first list after the middle event.
    const [midEvent] = (
      await client.query(
        `SELECT created_at, position FROM events WHERE org_id = $1
          ORDER BY created_at DESC, position DESC OFFSET $2 LIMIT 1`,
        [org.orgId, VOLUMES.events / 2],
      )
    ).rows;
    const eventCursor = Buffer.from(`${midEvent.created_at.getTime()}_${midEvent.position}`).toString(
      'base64url',
    );
    const hourAgo = (hours) => new Date(Date.now() - hours * 3600_000).toISOString();
    // One of the users with KYC events (lib/dashboard-seed.mjs): 100 of them, and 10 orders.
    const user = orgUserIdOf(VOLUMES.users / 2 + 1);
    const cursor = (id) => Buffer.from(String(id)).toString('base64url');
    const pages = [
      { path: '/dashboard/', list: false },
      { path: '/dashboard/webhook', list: false },
      { path: '/dashboard/users', list: true },
      { path: `/dashboard/users?cursor=${cursor(midUser)}`, list: true },
      { path: '/dashboard/users?q=user-0042', list: true },
      { path: '/dashboard/users?q=nobody', list: true },
      { path: '/dashboard/users?userStatus=SUSPENDED', list: true },
      { path: `/dashboard/users/${user}`, list: false },
      { path: '/dashboard/orders', list: true },
      { path: `/dashboard/orders?cursor=${cursor(midOrder)}`, list: true },
      { path: `/dashboard/orders?orgUserId=${user}`, list: true },
      { path: '/dashboard/orders?status=REJECTED', list: true },
      { path: `/dashboard/orders/${orderId}`, list: false },
      { path: '/dashboard/credentials', list: true },
      { path: '/dashboard/catalogue', list: false },
      { path: '/dashboard/events', list: true },
      { path: `/dashboard/events?cursor=${eventCursor}`, list: true },
      { path: '/dashboard/events?status=FAILED', list: true },
      { path: '/dashboard/events?status=SKIPPED', list: true },
      { path: '/dashboard/events?entity=SystemInformation', list: true },
      { path: '/dashboard/events?entity=Orders&eventType=KYC_EXPIRED', list: true },
      { path: '/dashboard/events?entity=Users&eventType=KYC_RFI', list: true },
      { path: `/dashboard/events?since=${hourAgo(15 * 24 + 1)}&until=${hourAgo(15 * 24)}`, list: true },
      { path: `/dashboard/events/${failed.id}`, list: false },
      { path: `/dashboard/events?orgUserId=${user}`, list: true },
      { path: `/dashboard/events?orderId=${VOLUMES.events / 2 + 5}`, list: true },
      { path: '/console/', list: false },
      { path: '/console/kyc', list: true },
      { path: '/console/kyc?q=user-0042', list: true },
    ];
    return { org: { ...org, user }, pages, operator };
  } finally {
    await client.end();
  }
}

/** The organisation's id, as GET /api/v1/org/ tells its own caller. */
async function orgIdOf(base, token) {
  const org = await call(base, 'GET', '/api/v1/org/', { headers: { authorization: `Bearer ${token}` } });
  return org.orgId;
}

/** A sign-in link asked for with the bearer token, opened as the page's form does: the session cookie. */
async function signIn(base, token) {
  const { url: link } = await call(base, 'POST', '/api/v1/dashboard/sessions/', {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const response = await fetch(`${base}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ token: new URL(link).searchParams.get('token') ?? '' }).toString(),
  });
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('svc_dashboard='));
  if (response.status !== 303 || !cookie) throw new Error(`sign-in failed: ${response.status}`);
  return cookie.split(';')[0];
}

/**
 * A console session cookie for the bootstrapped operator (password and a TOTP code). A code is taken once:
 * bootstrapping used the codes up to the next 30-second step, so a refused one is tried again at the next.
 */
async function consoleSignIn(base, operator) {
  for (let attempt = 0; ; attempt++) {
    const code = await generate({ secret: operator.totpSecret });
    const response = await fetch(`${base}/api/v1/admin/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: operator.email, password: operator.password, code }),
    });
    if (response.status === 200) return response.headers.get('set-cookie').split(';')[0];
    if (attempt === 3) throw new Error(`console sign-in: ${response.status} ${await response.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 30_500 - (Date.now() % 30_000)));
  }
}

/**
 * The measured organisation's every event as CSV from a fresh api, read to the end: the rows, the bytes,
 * the time, and the api process's peak resident memory before and after (VmHWM, /proc).
 */
async function measureExport(url, org) {
  const server = await startServer(url);
  try {
    const cookie = await signIn(server.base, org.token);
    await load(server.base, '/dashboard/', cookie);
    const before = peakRss(server.pid);
    const started = performance.now();
    const response = await fetch(`${server.base}/dashboard/events/export.csv?since=2000-01-01`, {
      headers: { cookie },
    });
    if (response.status !== 200) throw new Error(`export: ${response.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    const after = peakRss(server.pid);
    console.log(
      `\nevents export: ${lines - 1} rows, ${(bytes / 1e6).toFixed(0)} MB in ${seconds.toFixed(1)} s; ` +
        `api peak RSS ${before} MB before, ${after} MB after`,
    );
  } finally {
    await server.stop();
  }
}

/** The process's peak resident set (VmHWM) in MB. */
function peakRss(pid) {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kb) / 1024);
}

/** Milliseconds from the request to the last byte of a 200 page; anything else stops the run. */
async function load(base, path, cookie) {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: { cookie } });
  const html = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${html.slice(0, 300)}`);
  return ms;
}

async function startServer(url) {
  const child = fork(new URL('./lib/api-server.mjs', import.meta.url), ['api'], {
    env: { ...process.env, ...env, DATABASE_URL: url },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`the api exited (${code}) before it was ready`)));
  });
  child.removeAllListeners('exit');
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.send('stop');
      }),
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function report(pages, samples) {
  console.log(
    `\n${ROUNDS} rounds (a fresh api each), ${LOADS} warm loads per page and round; medians in ms\n`,
  );
  console.log('| page | kind | first load | warm median | warm max | target | met |');
  console.log('| ---- | ---- | ---------: | ----------: | -------: | ------ | --- |');
  let allMet = true;
  for (const page of pages) {
    const { first, warm } = samples.get(page.path);
    const firstMs = median(first);
    const warmMs = median(warm);
    const met = firstMs < PAGE_TARGET_MS && (!page.list || warmMs < LIST_TARGET_MS);
    allMet &&= met;
    const target = page.list
      ? `first < ${PAGE_TARGET_MS}, warm < ${LIST_TARGET_MS}`
      : `first < ${PAGE_TARGET_MS}`;
    console.log(
      `| \`${page.path}\` | ${page.list ? 'list' : 'page'} | ${firstMs.toFixed(1)} | ${warmMs.toFixed(1)} | ${Math.max(...warm).toFixed(1)} | ${target} | ${met ? 'yes' : '**no**'} |`,
    );
  }
  console.log(`\nTargets ${allMet ? 'met' : 'NOT met'}.`);
}
