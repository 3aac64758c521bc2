// What an Idempotency-Key costs a write: POST /api/v1/user/ with a bearer token and a new orgUserId, without
// a key (the reference, measured in the same run) and with a new key on every request (the key claimed, then
// the answer kept: two statements more), and a repeat of one keyed request (answered from the key without
// running). Bearer rather than signed: a signed repeat of one body would reuse its signature within a
// second, which the api refuses. One api process (lib/api-server.mjs) on a seeded database, autocannon here,
// interleaved rounds whose order turns, medians; the figure is the ratio of req/s to the write without a key.
// Run after a build: node bench/idempotency.bench.mjs. Knobs: BENCH_ROUNDS (5), BENCH_SECONDS (4),
// BENCH_CONNECTIONS (10), BENCH_PIN.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEmbeddedPostgres } from '@svc/db/dev';

import { apiEnv, load, measuredLoad, median, startServer } from './lib/http-bench.mjs';
import { seed } from './lib/seed.mjs';
import { bootstrapOperator } from '../scripts/bootstrap-operator.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const USER_PATH = '/api/v1/user/';
const runId = randomBytes(3).toString('hex');
const env = apiEnv();
let created = 0;

const dir = await mkdtemp(join(tmpdir(), 'svc-idempotency-bench-'));
const postgres = await startEmbeddedPostgres({ dir, persistent: false });
let server;
try {
  await postgres.createDatabase('bench_idempotency');
  const url = postgres.url('bench_idempotency');
  // Seeded by a process stopped before the measured one starts (bench/README.md, "Method").
  const seeding = await startServer('api', { url, env });
  let credentials;
  try {
    const { operatorToken } = await bootstrapOperator(`http://127.0.0.1:${seeding.port}`, env.ADMIN_TOKEN);
    credentials = await seed(`http://127.0.0.1:${seeding.port}`, operatorToken, {
      name: 'bench',
      userIds: [],
    });
  } finally {
    await seeding.stop();
  }
  server = await startServer('api', { url, env });
  const replayedBody = `{"orgUserId":"bench-${runId}-replayed","kyc":true,"tnc":true}`;
  const replayedKey = randomUUID();
  const scenarios = {
    'without a key': userWrite(server.port, credentials, () => [newUser(), undefined]),
    'with a new key': userWrite(server.port, credentials, () => [newUser(), randomUUID()]),
    'a repeat (replayed)': userWrite(server.port, credentials, () => [replayedBody, replayedKey]),
  };
  // The repeated request's first answer, kept before any load: ten at once would find it running (409).
  await load(scenarios['a repeat (replayed)'], { seconds: 1, connections: 1 });
  for (const target of Object.values(scenarios)) await load(target, { seconds: 2, connections: CONNECTIONS });
  const samples = {};
  const names = Object.keys(scenarios);
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length];
      const result = await measuredLoad(server, scenarios[name], {
        seconds: SECONDS,
        connections: CONNECTIONS,
      });
      (samples[name] ??= []).push(result);
    }
  }
  const reference = median(samples['without a key'].map((r) => r.rps));
  console.log(
    `POST ${USER_PATH} (bearer), Node ${process.version}, ${availableParallelism()} cores, ${CONNECTIONS} ` +
      `connections, median of ${ROUNDS} interleaved rounds of ${SECONDS} s`,
  );
  console.table(
    names.map((name) => {
      const rps = median(samples[name].map((r) => r.rps));
      return {
        request: name,
        'req/s': Math.round(rps).toLocaleString('en-US'),
        'p50 ms': median(samples[name].map((r) => r.p50)).toFixed(2),
        'server CPU µs/req': Math.round(median(samples[name].map((r) => r.cpuPerRequest))),
        'vs without a key': (rps / reference).toFixed(2),
      };
    }),
  );
} finally {
  await server?.stop();
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}

function newUser() {
  return `{"orgUserId":"bench-${runId}-${++created}","kyc":true,"tnc":true}`;
}

/** POST /api/v1/user/ with the users token, the body and key `next` gives. */
function userWrite(port, credentials, next) {
  return {
    port,
    requests: [
      {
        method: 'POST',
        path: USER_PATH,
        setupRequest(request) {
          const [body, key] = next();
          request.body = body;
          request.headers = {
            ...request.headers,
            'content-type': 'application/json',
            authorization: `Bearer ${credentials.usersToken}`,
            ...(key === undefined ? {} : { 'idempotency-key': key }),
          };
          return request;
        },
      },
    ],
  };
}
