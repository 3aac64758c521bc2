// A route layer by layer: bare node:http + pg (the api bench's reference, lib/bare-api.mjs), each framework
// layer the api is built on added one at a time (lib/layers.mjs), and the api, in one table with each one's
// ratio to bare, so that each layer's cost shows. Every candidate does the same work per request with the
// reference's own functions. Routes (BENCH_ROUTE):
//   bearer echo (default)  POST /api/v1/oauth/test with a bearer token and the 296-byte order body: the
//     token's SHA-256, its oauth_tokens row joined to a live client behind the same 0.5 s cache, expiry, the
//     scope, the body checked (invalid JSON and duplicate keys refused) and echoed compact in the envelope;
//     layers Fastify, Nest on Fastify, Nest with @nestjs/passport's guard. Target: the api >=
//     0.6 of bare.
//   signed write  POST /api/v1/user/ signed afresh for every request (a new orgUserId, timestamp and HMAC):
//     the API key signature check and claim, the body validated as CreateUserDto, the user and its event in
//     one transaction; layers as the echo's, then Nest's ValidationPipe with a class-validator DTO, then the
//     transaction on a TypeORM query runner: the stack the api is built on, doing the reference's work.
//     Target: the api's CPU per request <= 1.2 times bare's, with req/s >= 0.9 of bare's.
//   signed order  POST /api/v1/orders/ signed afresh for every request, the api bench's orders (BUYs over
//     200 users, by quantity and by quoteQuantity, two pairs): the same check, the body validated as
//     CreateOrderDto, the order's statements (lib/bare-orders.mjs) and its event in one transaction; the
//     signed write's layers; the same target. How the orders ended is printed: all must fill.
// One embedded PostgreSQL and one database, seeded through the api's HTTP surface (lib/seed.mjs); each
// candidate a child process (lib/api-server.mjs), autocannon here; interleaved rounds, the order turning
// each round; figures are medians.
// Run, after a build: node bench/layers.bench.mjs. Knobs: BENCH_ROUTE (`bearer echo`), BENCH_ROUNDS (5),
// BENCH_SECONDS (4), BENCH_CONNECTIONS (10), BENCH_LOG_LEVEL (warn), BENCH_CPU_PROF=<dir> (profiles every
// candidate), BENCH_COMPARE=<folder>,... (earlier builds of the api in apps/api/<folder>, measured beside
// it), BENCH_LAYERS=fastify,nest,... (only these framework layers, or `none`: bare, the api and the
// BENCH_COMPARE builds always run; to compare builds of the api in less time), BENCH_PIN=<cpus> (each server
// alone on those CPUs: `BENCH_PIN=1 taskset -c 0 node bench/layers.bench.mjs`, lib/http-bench.mjs).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEmbeddedPostgres } from '@svc/db/dev';
import pg from 'pg';

import { apiEnv, ECHO_BODY, measuredLoad, median, startServer } from './lib/http-bench.mjs';
import { ROUTE_LAYERS } from './lib/layers.mjs';
import { seed, signedHeaders, signedPost } from './lib/seed.mjs';
import { bootstrapOperator } from '../scripts/bootstrap-operator.mjs';

const ROUTE = process.env.BENCH_ROUTE ?? 'bearer echo';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const CPU_PROF = process.env.BENCH_CPU_PROF;
const LABELS = {
  fastify: 'Fastify',
  nest: 'Nest on Fastify, plain guard',
  'nest-passport': 'Nest on Fastify, @nestjs/passport guard',
  'nest-validation': '+ ValidationPipe, class-validator DTO',
  'nest-typeorm': '+ TypeORM query runner transaction',
};
if (!ROUTE_LAYERS[ROUTE]) throw new Error(`BENCH_ROUTE: one of ${Object.keys(ROUTE_LAYERS).join(', ')}`);
const ONLY = process.env.BENCH_LAYERS?.split(',');
/** The candidates, from the bare reference up to the api; the names are lib/api-server.mjs's. */
const LAYERS = [
  ['bare', 'bare node:http + pg'],
  ...ROUTE_LAYERS[ROUTE].filter((name) => !ONLY || ONLY.includes(name)).map((name) => [name, LABELS[name]]),
  ['api', 'the api'],
  // BENCH_COMPARE=dist-a,dist-b: earlier builds of the api kept in apps/api/<folder>, as extra rows.
  ...(process.env.BENCH_COMPARE?.split(',') ?? []).map((folder) => [`api@${folder}`, `the api (${folder})`]),
];

/** Each route's path, requests and check that every candidate answers alike. */
const runId = randomBytes(3).toString('hex');
let sent = 0;
const ORDER_USERS = 200;
const ROUTES = {
  'bearer echo': {
    path: '/api/v1/oauth/test',
    target: ({ port, credentials }) => ({
      port,
      requests: [{ method: 'POST', path: '/api/v1/oauth/test', ...bearerEcho(credentials) }],
    }),
    /** The same answer from every candidate. */
    async sample(server) {
      const response = await post(server, '/api/v1/oauth/test', bearerEcho(server.credentials));
      return `${response.status} ${await response.text()}`;
    },
  },
  'signed write': {
    path: '/api/v1/user/',
    target: (server) => signedPost(server, '/api/v1/user/', () => userBody(`bench-${runId}-${++sent}`)),
    sample: (server) =>
      signedSample(server, '/api/v1/user/', (tag) => userBody(`${tag}-${runId}-${server.name}`), [
        'orgUserId',
      ]),
  },
  'signed order': {
    path: '/api/v1/orders/',
    users: Array.from({ length: ORDER_USERS }, (_, i) => `trader-${i + 1}`),
    target: (server) => signedPost(server, '/api/v1/orders/', () => orderBody(++sent)),
    sample: (server) => signedSample(server, '/api/v1/orders/', () => orderBody(0), ['id', 'clientOrderId']),
  },
};
const route = ROUTES[ROUTE];

const env = apiEnv({ LOG_LEVEL, BENCH_ROUTE: ROUTE });

const dir = await mkdtemp(join(tmpdir(), 'svc-layers-bench-'));
const postgres = await startEmbeddedPostgres({ dir, persistent: false });
const servers = [];
try {
  await postgres.createDatabase('bench_layers');
  const url = postgres.url('bench_layers');
  const options = { url, env, cpuProfDir: CPU_PROF };
  // An api process migrates the database and is seeded through, then stops: every candidate, the api
  // included, starts afresh on it with the same credentials (a process that served the seeding ran the
  // echo 10 to 15 % dearer than a fresh one of the same build).
  const seeder = await startServer('api', { url, env });
  let credentials;
  try {
    const base = `http://127.0.0.1:${seeder.port}`;
    const { operatorToken } = await bootstrapOperator(base, env.ADMIN_TOKEN);
    credentials = await seed(base, operatorToken, { name: 'layers', userIds: route.users ?? [] });
  } finally {
    await seeder.stop();
  }
  for (const [name] of LAYERS) servers.push({ name, credentials, ...(await startServer(name, options)) });
  // Every candidate must answer alike before anything is timed.
  const answers = await Promise.all(servers.map((server) => route.sample(server)));
  if (new Set(answers).size !== 1)
    throw new Error(`the candidates answer differently:\n${answers.join('\n')}`);

  const loadOptions = { seconds: SECONDS, connections: CONNECTIONS };
  // Warm-up (JIT, caches, pools), not measured.
  for (const server of servers)
    server.served = (await measuredLoad(server, route.target(server), { ...loadOptions, seconds: 2 })).count;
  const samples = {};
  const loads = [];
  for (let round = 0; round < ROUNDS; round++) {
    loads.push(loadavg()[0]);
    const order = servers.map((_, i) => servers[(i + round) % servers.length]);
    for (const server of order) {
      const result = await measuredLoad(server, route.target(server), loadOptions);
      (samples[server.name] ??= []).push(result);
      server.served += result.count;
    }
  }
  report(samples, loads);
  if (ROUTE === 'signed order') await reportOrderOutcomes(url);
  // A profile's time over its requests: what each candidate answered (the checks' few aside).
  if (CPU_PROF)
    for (const server of servers)
      console.log(`${server.name} (pid ${server.pid}) served ${server.served} requests`);
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}

function bearerEcho(credentials) {
  return {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${credentials.token}` },
    body: ECHO_BODY,
  };
}

function userBody(orgUserId) {
  return `{"orgUserId":"${orgUserId}","kyc":true,"tnc":true}`;
}

/** The api bench's orders: a new clientOrderId, the next user, BUYs by quantity and by quoteQuantity on two pairs in turn. */
function orderBody(n) {
  const user = `trader-${(n % ORDER_USERS) + 1}`;
  const amount = n % 2 === 0 ? '"quantity":0.00123456' : '"quoteQuantity":25.5';
  const symbol = n % 4 < 2 ? 'BTC_EUR' : 'ETH_EUR';
  return `{"orgUserId":"${user}","clientOrderId":"${randomUUID()}","symbol":"${symbol}","side":"BUY","type":"MARKET",${amount}}`;
}

/**
 * A signed route's check: the same answer (`varying` fields, times and ids aside) from every candidate to
 * `bodyOf('check')`, the same refusal of its replay, and a 400 for a field its DTO does not have.
 */
async function signedSample(server, path, bodyOf, varying) {
  const body = bodyOf('check');
  const request = { headers: signedHeaders(server.credentials, path, body), body };
  const first = await post(server, path, request);
  const answer = await first.json();
  for (const field of [...varying, 'createdAt', 'updatedAt']) delete answer.data?.[field];
  const replay = await post(server, path, request);
  const extra = bodyOf('extra').replace(/}$/, ',"extra":1}');
  const refused = await post(server, path, {
    headers: signedHeaders(server.credentials, path, extra),
    body: extra,
  });
  return (
    `${first.status} ${JSON.stringify(answer)}; replayed: ${replay.status} ${await replay.text()}; ` +
    // The status only: the api names the field before the rule, the reference does not.
    `an extra field: ${refused.status}`
  );
}

function post(server, path, { headers, body }) {
  return fetch(`http://127.0.0.1:${server.port}${path}`, { method: 'POST', headers, body });
}

/** How the orders ended: a rejected order costs less than a filled one, so the candidates must all fill. */
async function reportOrderOutcomes(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT status, count(*)::int AS n FROM orders GROUP BY status ORDER BY status',
    );
    console.log(`orders of every candidate: ${rows.map((row) => `${row.status} ${row.n}`).join(', ')}`);
  } finally {
    await client.end();
  }
}

function report(samples, loads) {
  const figure = (name) => ({
    rps: median(samples[name].map((r) => r.rps)),
    p50: median(samples[name].map((r) => r.p50)),
    p99: median(samples[name].map((r) => r.p99)),
    cpu: median(samples[name].map((r) => r.cpuPerRequest)),
    user: median(samples[name].map((r) => r.userCpuPerRequest)),
  });
  const bare = figure('bare');
  const rows = LAYERS.map(([name, label]) => {
    const f = figure(name);
    return {
      candidate: label,
      'req/s': Math.round(f.rps).toLocaleString('en-US'),
      'by round': samples[name].map((r) => Math.round(r.rps)).join(' / '),
      'p50 ms': f.p50.toFixed(2),
      'p99 ms': f.p99.toFixed(2),
      'CPU µs/req': f.cpu.toFixed(1),
      'user µs/req': f.user.toFixed(1),
      'vs bare': (f.rps / bare.rps).toFixed(2),
      'CPU vs bare': (f.cpu / bare.cpu).toFixed(2),
    };
  });
  console.log(
    `${ROUTE} layer by layer, POST ${route.path}, Node ${process.version}, ${availableParallelism()} cores, ` +
      `${CONNECTIONS} connections, median of ${ROUNDS} interleaved rounds of ${SECONDS} s, LOG_LEVEL=${LOG_LEVEL}, ` +
      `load average at each round's start ${loads.map((l) => l.toFixed(1)).join(' / ')}`,
  );
  console.table(rows);
  const api = figure('api');
  const ratio = Number((api.rps / bare.rps).toFixed(2));
  if (ROUTE === 'bearer echo') {
    console.log(`target: the api >= 0.6 of bare: ${ratio >= 0.6 ? 'met' : 'NOT met'} (${ratio})`);
    return;
  }
  const cpu = Number((api.cpu / bare.cpu).toFixed(2));
  const met = cpu <= 1.2 && ratio >= 0.9;
  console.log(
    `target: the api's CPU per request <= 1.2 times bare's, req/s >= 0.9 of bare's: ` +
      `${met ? 'met' : 'NOT met'} (CPU ${cpu}, req/s ${ratio})`,
  );
}
