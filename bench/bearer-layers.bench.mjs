// The bearer echo layer by layer: POST /api/v1/oauth/test with a bearer token and the 296-byte order body,
// answered by bare node:http + pg (the api bench's reference, lib/bare-api.mjs), Fastify, Nest on Fastify,
// Nest with @nestjs/passport's bearer guard (lib/bearer-layers.mjs) and the api, in one table with each
// one's ratio to bare, so that each layer's cost shows. Every candidate does the same work per request:
// the token's SHA-256, its oauth_tokens row joined to a live client behind the same 0.5 s cache, expiry,
// the scope, the body checked (invalid JSON and duplicate keys refused) and echoed compact in the envelope.
// One embedded PostgreSQL and one database, seeded through the api's HTTP surface (lib/seed.mjs); each
// candidate a child process (lib/api-server.mjs), autocannon here; interleaved rounds, the order turning
// each round; figures are medians. Target (issue 15): the api >= 0.6 of bare.
// Run, after a build: node bench/bearer-layers.bench.mjs. Knobs: BENCH_ROUNDS (5), BENCH_SECONDS (4),
// BENCH_CONNECTIONS (10), BENCH_LOG_LEVEL (warn), BENCH_CPU_PROF=<dir> (profiles every candidate),
// BENCH_COMPARE=<folder>,... (earlier builds of the api in apps/api/<folder>, measured beside it),
// BENCH_LAYERS=fastify,nest,... (only these framework layers, or `none`: bare, the api and the
// BENCH_COMPARE builds always run; to compare builds of the api in less time).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEmbeddedPostgres } from '@svc/db/dev';

import { ECHO_BODY, measuredLoad, median, startServer } from './lib/http-bench.mjs';
import { seed } from './lib/seed.mjs';
import { bootstrapOperator } from '../scripts/bootstrap-operator.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const CPU_PROF = process.env.BENCH_CPU_PROF;
const TARGET = 0.6;
const PATH = '/api/v1/oauth/test';
/** The candidates, from the bare reference up to the api; the names are lib/api-server.mjs's. */
const ALL_LAYERS = [
  ['bare', 'bare node:http + pg'],
  ['fastify', 'Fastify'],
  ['nest', 'Nest on Fastify, plain guard'],
  ['nest-passport', 'Nest on Fastify, @nestjs/passport guard'],
  ['api', 'the api'],
  // BENCH_COMPARE=dist-a,dist-b: earlier builds of the api kept in apps/api/<folder>, as extra rows.
  ...(process.env.BENCH_COMPARE?.split(',') ?? []).map((folder) => [`api@${folder}`, `the api (${folder})`]),
];
const ONLY = process.env.BENCH_LAYERS?.split(',');
const LAYERS = ALL_LAYERS.filter(
  ([name]) => !ONLY || ['bare', 'api'].includes(name) || name.startsWith('api@') || ONLY.includes(name),
);

const env = {
  NODE_ENV: 'production',
  MASTER_KEY: randomBytes(32).toString('base64'),
  ADMIN_TOKEN: randomBytes(24).toString('hex'),
  OPERATOR_STEP_UP_MINUTES: '60',
  LOG_LEVEL,
};

const dir = await mkdtemp(join(tmpdir(), 'svc-layers-bench-'));
const postgres = await startEmbeddedPostgres({ dir, persistent: false });
const servers = [];
try {
  await postgres.createDatabase('bench_layers');
  const url = postgres.url('bench_layers');
  const options = { url, env, cpuProfDir: CPU_PROF };
  // An api process migrates the database and is seeded through, then stops: every candidate, the api
  // included, starts afresh on it and reads the same token (a process that served the seeding ran the
  // echo 10 to 15 % dearer than a fresh one of the same build).
  const seeder = await startServer('api', { url, env });
  let token;
  try {
    const base = `http://127.0.0.1:${seeder.port}`;
    const { operatorToken } = await bootstrapOperator(base, env.ADMIN_TOKEN);
    ({ token } = await seed(base, operatorToken, { name: 'layers', userIds: [] }));
  } finally {
    await seeder.stop();
  }
  for (const [name] of LAYERS) servers.push({ name, ...(await startServer(name, options)) });
  const target = (server) => ({
    port: server.port,
    requests: [
      {
        method: 'POST',
        path: PATH,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: ECHO_BODY,
      },
    ],
  });
  const loadOptions = { seconds: SECONDS, connections: CONNECTIONS };
  // Every candidate must answer alike before anything is timed.
  const answers = await Promise.all(
    servers.map(async (server) => {
      const response = await fetch(`http://127.0.0.1:${server.port}${PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: ECHO_BODY,
      });
      return `${response.status} ${await response.text()}`;
    }),
  );
  if (new Set(answers).size !== 1)
    throw new Error(`the candidates answer differently:\n${answers.join('\n')}`);

  // Warm-up (JIT, caches, pools), not measured.
  for (const server of servers) await measuredLoad(server, target(server), { ...loadOptions, seconds: 2 });
  const samples = {};
  const loads = [];
  for (let round = 0; round < ROUNDS; round++) {
    loads.push(loadavg()[0]);
    const order = servers.map((_, i) => servers[(i + round) % servers.length]);
    for (const server of order) {
      (samples[server.name] ??= []).push(await measuredLoad(server, target(server), loadOptions));
    }
  }
  report(samples, loads);
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}

function report(samples, loads) {
  const figure = (name) => ({
    rps: median(samples[name].map((r) => r.rps)),
    p50: median(samples[name].map((r) => r.p50)),
    p99: median(samples[name].map((r) => r.p99)),
    cpu: median(samples[name].map((r) => r.cpuPerRequest)),
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
      'vs bare': (f.rps / bare.rps).toFixed(2),
      'CPU vs bare': (f.cpu / bare.cpu).toFixed(2),
    };
  });
  console.log(
    `bearer echo layer by layer, POST ${PATH}, Node ${process.version}, ${availableParallelism()} cores, ` +
      `${CONNECTIONS} connections, median of ${ROUNDS} interleaved rounds of ${SECONDS} s, LOG_LEVEL=${LOG_LEVEL}, ` +
      `load average at each round's start ${loads.map((l) => l.toFixed(1)).join(' / ')}`,
  );
  console.table(rows);
  const ratio = Number((figure('api').rps / bare.rps).toFixed(2));
  console.log(`target: the api >= ${TARGET} of bare: ${ratio >= TARGET ? 'met' : 'NOT met'} (${ratio})`);
}
