// The soak run (`npm run soak`; docs/security.md, "The soak run"): the api and the webhooks worker on an
// embedded PostgreSQL, driven for SOAK_SECONDS through their public routes while the api and the worker are
// killed with SIGKILL and PostgreSQL is crashed, each started again; then, once the worker has drained, a
// check that every accepted write has its event, every event was delivered to the webhook receiver and
// carried by the event stream once and in order. Prints the counts; exits 1 on any violation.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

import { SvcClient } from '@svc/sdk';
import pg from 'pg';

import { bootstrapOperator } from '../../scripts/bootstrap-operator.mjs';
import { apiEnv } from '../lib/http-bench.mjs';
import { judge, readEvents } from './checks.mjs';
import { Ledger, adminClient, operatorLoop, userLoop } from './load.mjs';
import { followStream, startReceiver } from './observers.mjs';
import { startDatabase, supervise } from './services.mjs';

const SECONDS = setting('SOAK_SECONDS', 120, 1);
const KILL_EVERY_SECONDS = setting('SOAK_KILL_EVERY_SECONDS', 20, 1);
const PG_RESTARTS = setting('SOAK_PG_RESTARTS', 2, 0);
const PG_DOWN_SECONDS = setting('SOAK_PG_DOWN_SECONDS', 5, 0);
const USERS = setting('SOAK_USERS', 4, 1);
const DRAIN_SECONDS = setting('SOAK_DRAIN_SECONDS', 60, 1);
const KEEP = process.env.SOAK_KEEP === '1';
const WEBHOOK_SECRET = 'whsec_soak-secret-0123456789abcdef';
const node = process.env.SERVICE_NODE ?? process.execPath;
const built = (path) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s`;
const say = (line) => console.log(`soak ${elapsed()}  ${line}`);

// The folder holds the logs and, inside, the cluster: the `postgres` user must be able to enter it.
const dir = await mkdtemp(join(tmpdir(), 'svc-soak-'));
await chmod(dir, 0o755);
say(`run folder ${dir} (postgres.log, api.log, worker.log)`);
const database = await startDatabase(join(dir, 'postgres'), join(dir, 'postgres.log'));
let pool;
// Removed at the end unless SOAK_KEEP, a violation, or an answer worth reading the api's log for.
let keep = true;
const stoppers = [];
try {
  const [apiPort, workerPort] = [await freePort(), await freePort()];
  const env = {
    PATH: process.env.PATH,
    ...apiEnv({ LOG_LEVEL: 'warn' }),
    DATABASE_URL: database.url(),
    DATA_DIR: dir,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
  };
  const api = supervise('api', {
    node,
    entry: built('apps/api/dist/main.js'),
    env: { ...env, PORT: String(apiPort), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${apiPort}` },
    logFile: join(dir, 'api.log'),
    readyUrl: `http://127.0.0.1:${apiPort}/readyz`,
  });
  // Retries 50, 100 and 150 ms after a failed attempt, as the worker's tests run it: a retry is part of
  // the run, not a wait past its end.
  const worker = supervise('worker', {
    node,
    entry: built('apps/webhooks/dist/main.js'),
    env: {
      ...env,
      WORKER_PORT: String(workerPort),
      WEBHOOK_RETRY_DELAYS_MS: '50,100,150',
      WEBHOOK_POLL_INTERVAL_MS: '500',
      OUTBOX_DIR: join(dir, 'outbox'),
    },
    logFile: join(dir, 'worker.log'),
    readyUrl: `http://127.0.0.1:${workerPort}/readyz`,
  });
  stoppers.push(
    () => worker.stop(),
    () => api.stop(),
  );
  // The api first: it applies the migrations the worker needs.
  await api.start();
  await worker.start();
  const baseUrl = `http://127.0.0.1:${apiPort}`;
  say(`api on ${baseUrl}, worker on :${workerPort}, PostgreSQL on :${database.port}`);

  const { operatorToken } = await bootstrapOperator(baseUrl, env.ADMIN_TOKEN);
  const admin = adminClient(baseUrl, operatorToken);
  const org = await admin('POST', '/api/v1/admin/orgs/', {
    name: 'Soak',
    kycDomain: 'localhost',
    plan: 'ENTERPRISE',
    supportEmails: ['support@example.com'],
  });
  const key = await admin('POST', `/api/v1/admin/orgs/${org.orgId}/api-keys/`, { label: 'soak' });
  for (const [symbol, price] of [
    ['BTC_EUR', 50_000],
    ['ETH_EUR', 2500],
  ]) {
    await admin('PUT', `/api/v1/admin/prices/${symbol}/`, { price });
  }
  const client = new SvcClient({
    baseUrl,
    apiKey: key.apiKey,
    apiSecret: key.apiSecret,
    // One attempt per write: the ledger records how each one ended.
    maxRetries: 0,
    timeoutMs: 10_000,
    retry: { initialDelayMs: 100, maxDelayMs: 1000 },
  });

  const receiver = await startReceiver(WEBHOOK_SECRET);
  stoppers.push(() => receiver.close());
  const webhook = { url: receiver.url, secret: WEBHOOK_SECRET };
  const since = new Date(Date.now() - 1000);
  const ledger = new Ledger();
  const setup = async (route, keys, send) => {
    if ((await ledger.write(route, keys, send)) === undefined) throw new Error(`${route} failed at setup`);
  };
  // The webhook before the first event, so that none is SKIPPED; the stream from before the first event.
  await setup('POST /webhooks', [], () => client.webhooks.register(webhook));
  await setup('PATCH /admin/orgs/policy', ['action ASSET_ENABLE {"BTC":1,"ETH":1}'], () =>
    admin('PATCH', `/api/v1/admin/orgs/${org.orgId}/policy/`, {
      enabledAssets: ['BTC', 'ETH'],
      commissionRate: 0.0015,
      vatRate: 0.21,
    }),
  );
  const stream = followStream(
    new SvcClient({
      baseUrl,
      apiKey: key.apiKey,
      apiSecret: key.apiSecret,
      retry: { initialDelayMs: 100, maxDelayMs: 1000 },
    }),
    since,
  );
  stoppers.push(() => stream.stop());

  say(
    `organisation ${org.orgId}: ${USERS} user loops and an operator for ${SECONDS} s; ` +
      `kill -9 every ${KILL_EVERY_SECONDS} s (the api, then the worker), ${PG_RESTARTS} PostgreSQL crash(es)`,
  );
  const load = new AbortController();
  const context = { ledger, client, admin, orgId: org.orgId, webhook, signal: load.signal };
  const loops = [
    ...Array.from({ length: USERS }, (_, loop) => userLoop({ ...context, loop })),
    operatorLoop(context),
  ];
  const crashes = await chaos({ api, worker, database, seconds: SECONDS });
  load.abort();
  await Promise.all(loops);
  // Everything up again before the drain: a start may still be under way.
  await Promise.all([api.ready(), worker.ready()]);
  say(`load stopped: ${ledger.writes.length} writes; waiting for the worker and the stream to drain`);

  pool = new pg.Pool({ connectionString: database.url(), max: 2 });
  // pool.end() resolves before its connections have closed: PostgreSQL's stop, right after, may still
  // reach one of them, which is no failure of the run.
  pool.on('error', () => undefined);
  const drainStarted = Date.now();
  let events = await readEvents(pool, org.orgId);
  while (Date.now() - drainStarted < DRAIN_SECONDS * 1000 && !drained(events, receiver, stream)) {
    await sleep(500);
    events = await readEvents(pool, org.orgId);
  }
  const drainSeconds = (Date.now() - drainStarted) / 1000;
  const { figures, violations } = judge({ writes: ledger.writes, events, receiver, streamed: stream });
  report(figures, { api, worker, database, crashes, drainSeconds });
  const passed = Object.keys(violations).length === 0;
  keep = KEEP || !passed || figures.writes.unexpected.length > 0;
  if (passed) {
    say('PASS: every accepted write has its event; every event delivered, and streamed once in order');
    if (keep) say(`the logs and the database stay in ${dir}`);
  } else {
    for (const [rule, items] of Object.entries(violations)) {
      console.error(`VIOLATION ${rule}: ${items.length}`);
      for (const item of items.slice(0, 10)) console.error(`  ${item}`);
      if (items.length > 10) console.error(`  ... and ${items.length - 10} more`);
    }
    console.error(`soak: FAILED; the logs and the database stay in ${dir}`);
    process.exitCode = 1;
  }
} finally {
  for (const stop of stoppers.reverse()) await stop();
  await pool?.end();
  await database.stop();
  if (!keep) await rm(dir, { recursive: true, force: true });
}

/**
 * The crashes, on a schedule: the api killed at KILL_EVERY_SECONDS / 2 and every KILL_EVERY_SECONDS after,
 * the worker at every KILL_EVERY_SECONDS, and PostgreSQL crashed PG_RESTARTS times spread over the run
 * (the first an immediate stop, the next a SIGKILL of all its processes, in turn), each down for
 * PG_DOWN_SECONDS. One at a time, in time order: one that comes while another is under way waits for it.
 */
async function chaos({ api, worker, database, seconds }) {
  const plan = [];
  for (let at = KILL_EVERY_SECONDS / 2; at < seconds; at += KILL_EVERY_SECONDS)
    plan.push({ at, what: 'api' });
  for (let at = KILL_EVERY_SECONDS; at < seconds; at += KILL_EVERY_SECONDS) plan.push({ at, what: 'worker' });
  for (let i = 0; i < PG_RESTARTS; i++) {
    const at = (seconds * (i + 1)) / (PG_RESTARTS + 1) + KILL_EVERY_SECONDS / 4;
    plan.push({ at, what: i % 2 === 0 ? 'immediate' : 'kill' });
  }
  plan.sort((a, b) => a.at - b.at);
  const crashes = { immediate: 0, kill: 0 };
  const begin = Date.now();
  for (const { at, what } of plan) {
    const wait = begin + at * 1000 - Date.now();
    if (wait > 0) await sleep(wait);
    const t = Date.now();
    if (what === 'api' || what === 'worker') {
      const service = what === 'api' ? api : worker;
      await service.kill();
      say(`kill -9 the ${what}; ready again after ${((Date.now() - t) / 1000).toFixed(1)} s`);
    } else {
      await database.crash(what);
      crashes[what]++;
      say(`PostgreSQL stopped (${what === 'kill' ? 'kill -9 of all its processes' : 'immediate stop'})`);
      await sleep(PG_DOWN_SECONDS * 1000);
      await database.restart();
      say(`PostgreSQL started again after ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
  }
  const end = begin + seconds * 1000 - Date.now();
  if (end > 0) await sleep(end);
  return crashes;
}

function drained(events, receiver, stream) {
  const streamed = new Set(stream.events.map((event) => event.id));
  return events.every(
    (event) =>
      event.status !== 'PENDING' &&
      (receiver.deliveries.get(event.id)?.bodies.length ?? 0) > 0 &&
      streamed.has(event.id),
  );
}

function report(figures, { api, worker, database, crashes, drainSeconds }) {
  const { writes, routes, events, webhooks, stream } = figures;
  const lines = [
    '',
    `writes       attempted ${writes.attempted}, accepted ${writes.accepted}, refused (4xx) ${writes.refused}, no answer or 5xx ${writes.unknown}`,
    `  failures by answer: ${format(writes.reasons)}`,
    ...writes.unexpected
      .slice(0, 5)
      .map((write) => `  answered ${write.reason}: ${write.route}: ${write.detail}`),
    ...[...routes].map(
      ([route, r]) =>
        `  ${route.padEnd(30)} ${String(r.attempted).padStart(6)} attempted ${String(r.accepted).padStart(6)} accepted ` +
        `${String(r.refused).padStart(4)} refused ${String(r.unknown).padStart(4)} no answer or 5xx`,
    ),
    `events       ${events.total}: ${format(events.byStatus)}`,
    `  by kind    ${format(events.byEntity)}`,
    `webhooks     ${webhooks.eventsReceived} events received in ${webhooks.deliveries} deliveries: ${webhooks.duplicates} duplicate deliveries (retries of an id already received); ` +
      `${webhooks.refusedOnPurpose} first attempts answered 500 on purpose; ${webhooks.challenges} challenges; ${webhooks.badSignatures} bad signatures`,
    `stream       ${stream.streamed} events streamed (${stream.distinct} distinct) over ${stream.connections} connections ` +
      `(${stream.reconnects} reconnects, ${stream.readerErrors} reader errors)`,
    `processes    api: ${describe(api.counts)}; worker: ${describe(worker.counts)}`,
    `PostgreSQL   ${database.restarts} restarts (${crashes.immediate} immediate stops, ${crashes.kill} kill -9 of all its processes)`,
    `drain        ${drainSeconds.toFixed(1)} s after the load stopped`,
    '',
  ];
  console.log(lines.join('\n'));
}

function describe({ kills, failedStarts, exitsOfItsOwn }) {
  return `${kills} kill -9, ${failedStarts} failed starts, ${exitsOfItsOwn} exits of its own`;
}

function format(counts) {
  return Object.entries(counts)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
}

/** A whole number of at least `min` from the environment, or one line naming the variable and exit 2. */
function setting(name, fallback, min) {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    console.error(`soak: ${name} must be a whole number of at least ${min}, got ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return value;
}

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
