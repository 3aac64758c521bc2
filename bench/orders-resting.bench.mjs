// A LIMIT order placed to rest, then cancelled, over HTTP: the api against a bare node:http + pg reference
// doing the same statements (lib/bare-resting.mjs: the signature check and claim, then in one transaction
// the user locked, the facts and the user's open orders read, every check with what they reserve, the
// pair's price and levels locked, the order inserted with its event; then the cancel: the order locked,
// CANCELLED, its event). Each autocannon connection places an order and cancels it in turn, so every order
// rests for one round trip. Both candidates must answer a placement and a cancel alike before anything is
// timed, and every order of the run must end CANCELLED with its two events. One embedded PostgreSQL, a fresh
// database per candidate, each candidate a child process (lib/api-server.mjs), autocannon here.
// Run: node bench/orders-resting.bench.mjs (after a build). Target: >= 0.8 of the reference's requests/s.
// Knobs: BENCH_ROUNDS (3), BENCH_SECONDS (5), BENCH_CONNECTIONS (10), BENCH_LOG_LEVEL (warn), BENCH_PIN,
// BENCH_COMPARE=<folder>,... (earlier builds of the api in apps/api/<folder>, beside it),
// BENCH_CPU_PROF=<dir> (a .cpuprofile of each candidate), BENCH_PG_STATEMENTS=1 (each candidate's statements
// per order placed and cancelled over the measured rounds, from pg_stat_statements).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import { openDatabase } from '@svc/db';
import { startEmbeddedPostgres } from '@svc/db/dev';

import { apiEnv, measuredLoad, median, startServer } from './lib/http-bench.mjs';
import { call, seed, signedHeaders } from './lib/seed.mjs';
import { bootstrapOperator } from '../scripts/bootstrap-operator.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const CPU_PROF = process.env.BENCH_CPU_PROF;
const PG_STATEMENTS = process.env.BENCH_PG_STATEMENTS === '1';
const TARGET = 0.8;
const USERS = 200;
const ORDERS = '/api/v1/orders/';
// BENCH_COMPARE=dist-a,dist-b: earlier builds of the api kept in apps/api/<folder>, measured beside it.
const COMPARE = process.env.BENCH_COMPARE?.split(',').filter(Boolean) ?? [];
const CANDIDATES = ['api', ...COMPARE.map((folder) => `api@${folder}`), 'bare-resting'];
const env = apiEnv({ LOG_LEVEL, ORDER_SWEEP_MS: '0' });
let placed = 0;

/** A GTC LIMIT BUY under the operator price (50,000): it rests. */
const restingBody = (orgUserId) =>
  `{"orgUserId":"${orgUserId}","clientOrderId":"${randomUUID()}","symbol":"BTC_EUR","side":"BUY","type":"LIMIT","quantity":0.00123456,"limitPrice":40000.5}`;

const dir = await mkdtemp(join(tmpdir(), 'svc-orders-bench-'));
const postgres = await startEmbeddedPostgres({
  dir,
  persistent: false,
  settings: PG_STATEMENTS ? { shared_preload_libraries: 'pg_stat_statements' } : {},
});
const servers = [];
const loads = [];
try {
  for (const name of CANDIDATES) servers.push(await startCandidate(name));
  if (PG_STATEMENTS)
    for (const server of servers)
      await statements(server, 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await checkAlike(servers);
  for (const server of servers)
    await measuredLoad(server, placeAndCancel(server), { seconds: 2, connections: CONNECTIONS });
  if (PG_STATEMENTS) await statements(servers[0], 'SELECT pg_stat_statements_reset()');
  const samples = Object.fromEntries(CANDIDATES.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    loads.push(loadavg()[0]);
    const order = servers.map((_, i) => servers[(i + round) % servers.length]);
    for (const server of order) {
      samples[server.name].push(
        await measuredLoad(server, placeAndCancel(server), { seconds: SECONDS, connections: CONNECTIONS }),
      );
    }
  }
  report(samples);
  for (const server of servers) await checkStored(server);
  if (PG_STATEMENTS) for (const server of servers) await reportStatements(server);
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}

/** A fresh database seeded through the api (lib/seed.mjs) by an api process stopped before the candidate. */
async function startCandidate(name) {
  const database = `bench_${name.replace(/[^a-z0-9]/gi, '_')}`;
  await postgres.createDatabase(database);
  const url = postgres.url(database);
  const seeder = await startServer('api', { url, env });
  let credentials;
  try {
    const baseUrl = `http://127.0.0.1:${seeder.port}`;
    const { operatorToken } = await bootstrapOperator(baseUrl, env.ADMIN_TOKEN);
    credentials = await seed(baseUrl, operatorToken, {
      name: `bench ${name}`,
      userIds: Array.from({ length: USERS }, (_, i) => `trader-${i + 1}`),
    });
  } finally {
    await seeder.stop();
  }
  const server = await startServer(name, { url, env, cpuProfDir: CPU_PROF });
  return { name, url, credentials, ...server };
}

/**
 * POST a resting LIMIT order, then DELETE it, on every connection in turn, each signed afresh; the DELETE
 * names the order the POST answered.
 */
function placeAndCancel({ port, credentials }) {
  return {
    port,
    requests: [
      {
        method: 'POST',
        path: ORDERS,
        setupRequest(request) {
          const body = restingBody(`trader-${(++placed % USERS) + 1}`);
          return {
            ...request,
            body,
            headers: { ...request.headers, ...signedHeaders(credentials, ORDERS, body) },
          };
        },
        onResponse(status, body, context) {
          context.orderId = JSON.parse(body).data.id;
        },
      },
      {
        method: 'DELETE',
        setupRequest(request, context) {
          const path = `${ORDERS}${context.orderId}/`;
          return {
            ...request,
            path,
            body: undefined,
            headers: { ...request.headers, ...deleteHeaders(credentials, path) },
          };
        },
      },
    ],
  };
}

/** The signature headers of a DELETE, which has no body and so no content type. */
function deleteHeaders(credentials, path) {
  const headers = signedHeaders(credentials, path, undefined);
  delete headers['content-type'];
  return headers;
}

/** Both candidates answer the same placement and cancel with the same record, ids and times aside. */
async function checkAlike(candidates) {
  const answers = [];
  for (const server of candidates) {
    const baseUrl = `http://127.0.0.1:${server.port}`;
    const body = restingBody('trader-1');
    const order = await call(baseUrl, 'POST', ORDERS, {
      headers: signedHeaders(server.credentials, ORDERS, body),
      body,
    });
    const path = `${ORDERS}${order.id}/`;
    const cancelled = await call(baseUrl, 'DELETE', path, {
      headers: deleteHeaders(server.credentials, path),
    });
    // Ids, times and the organisation differ by candidate; the rest must not.
    const comparable = (record) =>
      Object.fromEntries(
        Object.entries(record).filter(
          ([field]) => !['id', 'clientOrderId', 'createdAt', 'updatedAt', 'orgId'].includes(field),
        ),
      );
    answers.push(JSON.stringify([comparable(order), comparable(cancelled)]));
  }
  if (answers.some((answer) => answer !== answers[0])) {
    throw new Error(`the candidates answer differently:\n${answers.join('\n')}`);
  }
}

/** Every order ended CANCELLED with two events, PENDING then CANCELLED, or the candidates did other work. */
async function checkStored(server) {
  const dataSource = await openDatabase({ url: server.url, applicationName: 'bench-check' });
  try {
    const [row] = await dataSource.query(
      `SELECT count(*)::int AS orders,
              count(*) FILTER (WHERE status <> 'CANCELLED')::int AS open,
              (SELECT count(*)::int FROM events WHERE entity = 'Orders') AS events
         FROM orders`,
    );
    console.log(
      `${server.name}: ${row.orders} orders, ${row.open} not CANCELLED, ${row.events} Orders events`,
    );
    // An order in flight when a round's time ran out may still be PENDING; none more than the connections.
    if (row.open > CONNECTIONS * (ROUNDS + 2) || row.events < 2 * (row.orders - row.open)) {
      throw new Error(`${server.name} did not cancel every order with its events`);
    }
  } finally {
    await dataSource.destroy();
  }
}

/** `sql` on the candidate's database (pg_stat_statements is one view for the whole cluster). */
async function statements(server, sql) {
  const dataSource = await openDatabase({ url: server.url, applicationName: 'bench-check' });
  try {
    return await dataSource.query(sql);
  } finally {
    await dataSource.destroy();
  }
}

/** The candidate's statements over the measured rounds, per order (a placement and a cancel). */
async function reportStatements(server) {
  const [{ orders }] = await statements(server, 'SELECT count(*)::int AS orders FROM orders');
  const rows = await statements(
    server,
    `SELECT round(calls::numeric / ${orders}, 2)::float AS per_order,
            round(total_exec_time / calls * 1000)::int AS exec_us,
            left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY calls DESC LIMIT 16`,
  );
  console.log(`${server.name}: statements per order placed and cancelled`);
  console.table(rows);
}

function report(samples) {
  const figure = (name) => ({
    rps: median(samples[name].map((r) => r.rps)),
    p50: median(samples[name].map((r) => r.p50)),
    p99: median(samples[name].map((r) => r.p99)),
    cpu: median(samples[name].map((r) => r.cpuPerRequest)),
  });
  const bare = figure('bare-resting');
  console.log(
    `place + cancel a resting LIMIT order, Node ${process.version}, ${availableParallelism()} cores, ` +
      `${CONNECTIONS} connections, median of ${ROUNDS} interleaved rounds of ${SECONDS} s, ` +
      `load average ${loads.map((x) => x.toFixed(1)).join(', ')}`,
  );
  const rows = CANDIDATES.map((name) => {
    const f = figure(name);
    return {
      candidate: name === 'bare-resting' ? 'bare node:http + pg' : name,
      'req/s': Math.round(f.rps).toLocaleString('en-US'),
      'orders/s (place + cancel)': Math.round(f.rps / 2).toLocaleString('en-US'),
      'p50 ms': f.p50.toFixed(2),
      'p99 ms': f.p99.toFixed(2),
      'server CPU µs/req': Math.round(f.cpu),
      'vs bare': (f.rps / bare.rps).toFixed(2),
    };
  });
  console.table(rows);
  const ratio = Number((figure('api').rps / bare.rps).toFixed(2));
  console.log(
    `target: place + cancel >= ${TARGET} of bare: ${ratio >= TARGET ? 'met' : 'NOT met'} (${ratio})`,
  );
}
