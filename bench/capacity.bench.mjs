// The capacity check of docs/capacity.md, on this machine: two api processes and two webhook workers on one
// PostgreSQL, as a small deployment runs them. Signed orders go to both apis in turn; every order's event is
// delivered by the workers to a loopback receiver here, which answers 200 at once.
//   0. Idle: BENCH_SECONDS with no orders: what each part spends per second doing nothing (timers, polls).
//   1. Steady: BENCH_RATE orders/s for BENCH_SECONDS, then until every event has been received. The CPU of
//      each part (the two apis, the two workers, the whole PostgreSQL cluster, this process as the clients
//      and the receiver) over that time, less its idle spend, per order: what docs/capacity.md sizes with.
//   2. The ceiling those costs predict for this machine's cores: (cores - idle spend) / CPU per order.
//   3. Saturation: as many orders as the apis take for BENCH_SECONDS (BENCH_CONNECTIONS per api), then
//      until every event has been received: orders/s and deliveries/s reached, against the prediction.
// Run after a build: node bench/capacity.bench.mjs. Knobs: BENCH_RATE (200), BENCH_SECONDS (10),
// BENCH_CONNECTIONS (10), BENCH_USERS (200).
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { encryptSecret, openDatabase } from '@svc/db';
import { startEmbeddedPostgres } from '@svc/db/dev';
import autocannon from 'autocannon';

import { bootstrapOperator } from '../scripts/bootstrap-operator.mjs';
import { seed, signedPost } from './lib/seed.mjs';
import { startServer } from './lib/http-bench.mjs';
import { cpuSeconds, statFields } from './lib/proc-cpu.mjs';

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const USERS = Number(process.env.BENCH_USERS ?? 200);
const ORDER_PATH = '/api/v1/orders/';
const SECRET = 'whsec_capacity-bench-0123456789';
const MASTER_KEY = randomBytes(32).toString('base64');
const env = {
  NODE_ENV: 'production',
  // Production requires it; the bench follows no link the api hands out.
  PUBLIC_URL: 'http://127.0.0.1',
  MASTER_KEY,
  ADMIN_TOKEN: randomBytes(24).toString('hex'),
  OPERATOR_STEP_UP_MINUTES: '60',
  LOG_LEVEL: 'warn',
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
};

// The receiver: 200 at once; counts each event once (a retry would arrive twice).
const received = new Set();
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received.add(req.headers['svc-event-id']);
    res.writeHead(200).end();
  });
});
receiver.keepAliveTimeout = 10_000;
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));

const dir = await mkdtemp(join(tmpdir(), 'svc-capacity-bench-'));
const postgres = await startEmbeddedPostgres({ dir, persistent: false });
const url = postgres.url('capacity');
const processes = [];
try {
  await postgres.createDatabase('capacity');
  // The first api migrates the database; the second starts once it has.
  const apiA = await startServer('api', { url, env });
  processes.push(apiA);
  const baseUrl = `http://127.0.0.1:${apiA.port}`;
  const { operatorToken } = await bootstrapOperator(baseUrl, env.ADMIN_TOKEN);
  const userIds = Array.from({ length: USERS }, (_, i) => `trader-${i + 1}`);
  const credentials = await seed(baseUrl, operatorToken, { name: 'capacity', userIds });
  await registerEndpoint();
  const apiB = await startServer('api', { url, env });
  processes.push(apiB);
  const workers = [await startWorker(), await startWorker()];
  const apis = [apiA, apiB];

  // Warm-up: JIT, pools, caches; not measured.
  await offer(apis, credentials, { rate: RATE, seconds: 2 });
  await untilDelivered();

  const idle = await measure(apis, workers, () => pause(SECONDS));
  const idlePerSecond = (part) => idle.cpu[part] / idle.seconds;
  const steady = await measure(apis, workers, () =>
    offer(apis, credentials, { rate: RATE, seconds: SECONDS }),
  );
  const cores = availableParallelism();
  const PARTS = { api: 'api', worker: 'worker', postgres: 'postgres', bench: 'clients + receiver' };
  const costs = {};
  for (const [part, label] of Object.entries(PARTS)) {
    const busy = steady.cpu[part] - idlePerSecond(part) * steady.seconds;
    costs[label] = { perOrder: (busy * 1e6) / steady.orders, idle: idlePerSecond(part) };
  }
  const total = Object.values(costs).reduce((sum, cost) => sum + cost.perOrder, 0);
  const idleTotal = Object.values(costs).reduce((sum, cost) => sum + cost.idle, 0);
  const predicted = ((cores - idleTotal) * 1e6) / total;

  const saturated = await measure(apis, workers, () =>
    offer(apis, credentials, { connections: CONNECTIONS, seconds: SECONDS }),
  );

  console.log(
    `capacity: 2 api processes, 2 workers, one PostgreSQL; Node ${process.version}, ${cores} cores; ` +
      `steady ${RATE} orders/s for ${SECONDS} s, saturation ${CONNECTIONS} connections per api for ${SECONDS} s`,
  );
  console.table(
    Object.entries(costs).map(([part, cost]) => ({
      part,
      'CPU µs per order (idle spend taken out)': Math.round(cost.perOrder),
      share: `${Math.round((100 * cost.perOrder) / total)} %`,
      'idle CPU ms/s': Math.round(cost.idle * 1000),
    })),
  );
  console.table([
    row('steady', steady),
    row('saturation', saturated),
    { phase: 'predicted ceiling', 'orders/s': Math.round(predicted).toLocaleString('en-US') },
  ]);
  console.log(
    `saturation reached ${((saturated.ordersPerSecond / predicted) * 100).toFixed(0)} % of the ceiling ` +
      `the steady costs predict (${Math.round(total)} µs of CPU per order on ${cores} cores, ` +
      `${Math.round(idleTotal * 1000)} ms/s of them spent idle); load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}`,
  );
} finally {
  for (const child of processes.reverse()) await child.stop();
  receiver.closeAllConnections();
  receiver.close();
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}

function row(phase, result) {
  return {
    phase,
    'orders/s': Math.round(result.ordersPerSecond).toLocaleString('en-US'),
    'deliveries/s': Math.round(result.deliveriesPerSecond).toLocaleString('en-US'),
    'drain after offer s': result.drainSeconds.toFixed(1),
    'order p99 ms': result.p99.toFixed(1),
  };
}

/** The organisation's endpoint, ACTIVE, pointing at the receiver (its challenge is the api's tests' job). */
async function registerEndpoint() {
  const dataSource = await openDatabase({ url, applicationName: 'bench-setup' });
  try {
    await dataSource.query(
      `INSERT INTO webhook_endpoints (org_id, url, secret_ciphertext, status)
       SELECT id, $1, $2, 'ACTIVE' FROM organisations WHERE name = 'capacity'`,
      [
        `http://127.0.0.1:${receiver.address().port}/capacity`,
        encryptSecret(Buffer.from(MASTER_KEY, 'base64'), SECRET),
      ],
    );
  } finally {
    await dataSource.destroy();
  }
}

/**
 * Runs `offered` (which answers the orders placed) and waits until every event written meanwhile has been
 * received; answers the rates reached and the CPU each part used over the whole time.
 */
async function measure(apis, workers, offered) {
  const before = { cpu: await cpuOf(apis, workers), received: received.size, at: performance.now() };
  const result = await offered();
  const offeredFor = (performance.now() - before.at) / 1000;
  const drainStart = performance.now();
  await untilDelivered();
  const seconds = (performance.now() - before.at) / 1000;
  const after = await cpuOf(apis, workers);
  const cpu = Object.fromEntries(Object.keys(after).map((part) => [part, after[part] - before.cpu[part]]));
  return {
    seconds,
    orders: result.orders,
    ordersPerSecond: result.orders / offeredFor,
    deliveriesPerSecond: (received.size - before.received) / seconds,
    drainSeconds: (performance.now() - drainStart) / 1000,
    p99: result.p99,
    cpu,
  };
}

/** No orders for `seconds`. */
async function pause(seconds) {
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return { orders: 0, p99: 0 };
}

/** CPU seconds so far of each part. */
async function cpuOf(apis, workers) {
  const apiMicros = await Promise.all(apis.map((api) => api.cpu()));
  const { user, system } = process.cpuUsage();
  return {
    api: apiMicros.reduce((sum, value) => sum + value, 0) / 1e6,
    worker: workers.reduce((sum, worker) => sum + cpuSeconds(worker.pid), 0),
    postgres: clusterCpu(),
    bench: (user + system) / 1e6,
  };
}

/** Every event of the database received once. */
async function untilDelivered() {
  const dataSource = await openDatabase({ url, applicationName: 'bench-check' });
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const [{ n }] = await dataSource.query('SELECT count(*)::int AS n FROM events');
      if (received.size >= n) return;
      if (Date.now() > deadline) throw new Error(`only ${received.size} of ${n} events received`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await dataSource.destroy();
  }
}

/**
 * Signed orders to both apis, half the rate (or the connections) each, for `seconds`: a fresh clientOrderId
 * and signature for every request, users in turn, BUYs by quantity.
 */
async function offer(apis, credentials, { rate, connections, seconds }) {
  let n = 0;
  const times = [];
  const runs = apis.map((api) => {
    const instance = autocannon({
      url: `http://127.0.0.1:${api.port}`,
      connections: connections ?? Math.max(2, Math.ceil(rate / 50)),
      ...(rate ? { overallRate: rate / apis.length } : {}),
      duration: seconds,
      requests: signedPost({ port: api.port, credentials }, ORDER_PATH, () => {
        const user = `trader-${(n++ % USERS) + 1}`;
        return `{"orgUserId":"${user}","clientOrderId":"${randomUUID()}","symbol":"BTC_EUR","side":"BUY","type":"MARKET","quantity":0.00123456}`;
      }).requests,
    });
    instance.on('response', (_client, _status, _bytes, ms) => times.push(ms));
    return instance;
  });
  const results = await Promise.all(runs);
  const failed = results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0);
  if (failed > 0) throw new Error(`${failed} orders failed: every order must be answered 200`);
  const sorted = Float64Array.from(times).sort();
  return {
    orders: results.reduce((sum, r) => sum + r['2xx'], 0),
    p99: sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? 0,
  };
}

/** A webhook worker as production runs it: the built entry, its own process. */
async function startWorker() {
  const entry = fileURLToPath(import.meta.resolve('@svc/webhooks'));
  const child = spawn(process.execPath, [entry], {
    env: { PATH: process.env.PATH, ...env, LOG_LEVEL: 'info', DATABASE_URL: url, WORKER_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (/webhooks worker started/.test(output)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`a worker exited (${code}) before it was ready`)));
  });
  child.removeAllListeners('exit');
  child.stdout.removeAllListeners('data');
  child.stdout.resume();
  const worker = {
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
  processes.push(worker);
  return worker;
}

/**
 * CPU seconds of the whole PostgreSQL cluster: the postmaster's own and its children's, those that ended
 * (a closed connection's backend, an autovacuum worker: the postmaster waited for them, so they are in its
 * cutime and cstime) and those still running.
 */
function clusterCpu() {
  const postmaster = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const fields = statFields(postmaster);
  let total = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const child = statFields(entry);
    if (child && Number(child[1]) === postmaster) total += (Number(child[11]) + Number(child[12])) / 100;
  }
  return total;
}
