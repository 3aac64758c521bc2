// The event stream: commit-to-stream latency of GET /api/v1/events/stream (the api, as a child process)
// against a bare node:http + pg reference doing the same job (lib/bare-events.mjs: LISTEN/NOTIFY, the same
// xmin rule so that late commits are not skipped, SSE written by hand), in one run on one PostgreSQL, a
// database each. ORGS organisations with STREAMS_PER_ORG streams each stay open on both candidates. The
// producer here commits RATE events per second (the INSERT with its NOTIFY, as the api's outbox sends
// them), each in its own transaction from a pool of PRODUCERS connections (so transactions overlap and
// commit out of the order they were inserted in), spread over the organisations in turn; the clients
// here note when each event reaches each stream of its organisation. Latency is from the COMMIT returning
// to the message arriving. Rounds are interleaved, the order turning each round; figures are medians over
// the rounds. Every round checks that each stream got every event of its organisation once, in the order
// of the organisation's other streams.
// Run: npm run bench (or, after a build, node bench/events.bench.mjs). Target: p99 <= 50 ms at 500/s with
// 20 streams. Knobs: BENCH_RATE (500), BENCH_SECONDS (10), BENCH_ROUNDS (3), BENCH_ORGS (10),
// BENCH_STREAMS_PER_ORG (2), BENCH_PRODUCERS (8).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEmbeddedPostgres } from '@svc/db/dev';
import { signedRequestHeaders } from '@svc/protocol';
import pg from 'pg';

import { bootstrapOperator } from '../scripts/bootstrap-operator.mjs';
import { apiEnv, startServer } from './lib/http-bench.mjs';
import { call } from './lib/seed.mjs';

const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ORGS = Number(process.env.BENCH_ORGS ?? 10);
const STREAMS_PER_ORG = Number(process.env.BENCH_STREAMS_PER_ORG ?? 2);
const PRODUCERS = Number(process.env.BENCH_PRODUCERS ?? 8);
const CANDIDATES = ['api', 'bare'];
const DATA = (orgId, n) =>
  JSON.stringify({
    orgUserId: `bench-${n}`,
    orgId,
    kyc: false,
    tnc: true,
    userStatus: 'PENDING',
    userType: 'CONSUMER',
  });

const env = apiEnv({ EVENT_STREAMS_PER_ORG: String(STREAMS_PER_ORG + 1) });

const dir = await mkdtemp(join(tmpdir(), 'svc-events-bench-'));
const postgres = await startEmbeddedPostgres({ dir, persistent: false });
const candidates = [];
try {
  for (const name of CANDIDATES) candidates.push(await startCandidate(name));
  for (const candidate of candidates) await steady(candidate, Math.min(2, SECONDS)); // warm-up
  const samples = Object.fromEntries(CANDIDATES.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[(i + round) % candidates.length];
      await candidate.pool.query('VACUUM (ANALYZE) events');
      samples[candidate.name].push(await steady(candidate, SECONDS));
    }
  }
  report(samples);
} finally {
  for (const candidate of candidates) await candidate.stop();
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}

/** A migrated database with ORGS organisations, the candidate's process, and the streams open on it. */
async function startCandidate(name) {
  const database = `bench_${name}`;
  await postgres.createDatabase(database);
  const url = postgres.url(database);
  const server = await startServer(name, { url, env, script: 'events-server.mjs' });
  const base = `http://127.0.0.1:${server.port}`;
  const pool = new pg.Pool({ connectionString: url, max: PRODUCERS });
  const orgIds = [];
  const opens = [];
  let ahead = 0;
  // The api's operator routes take an operator's token, which the bootstrap ADMIN_TOKEN makes once.
  const operatorToken = name === 'api' ? (await bootstrapOperator(base, env.ADMIN_TOKEN)).operatorToken : '';
  for (let i = 0; i < ORGS; i++) {
    if (name === 'api') {
      // Through the operator routes, with an API key to sign the stream requests with.
      const admin = (path, body) =>
        call(base, 'POST', path, {
          headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const org = await admin('/api/v1/admin/orgs/', {
        name: `bench ${i}`,
        kycDomain: 'example.com',
        plan: 'STANDARD',
        supportEmails: ['support@example.com'],
      });
      const key = await admin(`/api/v1/admin/orgs/${org.orgId}/api-keys/`, { label: 'bench' });
      orgIds.push(org.orgId);
      for (let s = 0; s < STREAMS_PER_ORG; s++) {
        const path = '/api/v1/events/stream';
        // Each signature once: the same request in the same second is signed a second further ahead.
        const timestamp = String(Math.floor(Date.now() / 1000) + ahead++);
        opens.push(openStream(server.port, path, org.orgId, signedRequestHeaders({ path, timestamp }, key)));
      }
    } else {
      const { rows } = await pool.query(
        `INSERT INTO organisations (name, kyc_domain, plan, support_emails, policy)
         VALUES ($1, 'example.com', 'STANDARD', '{}', '{}') RETURNING id`,
        [`bench ${i}`],
      );
      orgIds.push(rows[0].id);
      for (let s = 0; s < STREAMS_PER_ORG; s++)
        opens.push(openStream(server.port, `/stream?org=${rows[0].id}`, rows[0].id));
    }
  }
  const streams = await Promise.all(opens);
  return {
    name,
    pool,
    orgIds,
    streams,
    cpu: server.cpu,
    async stop() {
      for (const stream of streams) stream.close();
      await pool.end();
      await server.stop();
    },
  };
}

/** A stream read as it comes: each message's id and arrival time, in order. */
function openStream(port, path, orgId, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream ${path}: ${res.statusCode}`));
      const stream = { orgId, arrivals: [], close: () => req.destroy() };
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const now = performance.now();
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (.*)$/m.exec(block)?.[1];
          if (id) stream.arrivals.push([id, now]);
        }
      });
      resolve(stream);
    });
    req.on('error', reject);
    req.end();
  });
}

/** RATE events a second for `seconds`; commit-to-message latencies over every (event, stream) pair. */
async function steady(candidate, seconds) {
  for (const stream of candidate.streams) stream.arrivals.length = 0;
  const total = Math.round(RATE * seconds);
  const committed = new Map(); // id -> [orgId, commit time]
  const cpuBefore = await candidate.cpu();
  const start = performance.now();
  const pending = [];
  for (let n = 0; n < total; n++) {
    const wait = start + (n * 1000) / RATE - performance.now();
    if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const orgId = candidate.orgIds[n % candidate.orgIds.length];
    pending.push(
      (async () => {
        const id = randomUUID();
        const client = await candidate.pool.connect();
        try {
          await client.query('BEGIN');
          // The statement the api's outbox sends: the event and the NOTIFY that wakes the streams.
          await client.query(
            `WITH inserted AS (
               INSERT INTO events (id, org_id, entity, data) VALUES ($1, $2, 'Users', $3) RETURNING org_id)
             SELECT pg_notify('svc_events', org_id::text) FROM inserted`,
            [id, orgId, DATA(orgId, n)],
          );
          await client.query('COMMIT');
          committed.set(id, [orgId, performance.now()]);
        } finally {
          client.release();
        }
      })(),
    );
  }
  await Promise.all(pending);
  const offered = total / ((performance.now() - start) / 1000);
  const expected = (stream) => [...committed].filter(([, [orgId]]) => orgId === stream.orgId).length;
  const deadline = Date.now() + 30_000;
  while (candidate.streams.some((stream) => stream.arrivals.length < expected(stream))) {
    if (Date.now() > deadline) throw new Error(`${candidate.name}: not every event reached every stream`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const cpu = (await candidate.cpu()) - cpuBefore;
  const latencies = [];
  const orderOf = new Map();
  for (const stream of candidate.streams) {
    const ids = stream.arrivals.map(([id]) => id);
    if (new Set(ids).size !== ids.length || ids.length !== expected(stream))
      throw new Error(`${candidate.name}: a stream got an event twice, or not at all`);
    // Every stream of an organisation gets its events in the same order.
    const order = ids.join(',');
    if (orderOf.has(stream.orgId) && orderOf.get(stream.orgId) !== order)
      throw new Error(`${candidate.name}: two streams of one organisation disagree on the order`);
    orderOf.set(stream.orgId, order);
    for (const [id, at] of stream.arrivals) latencies.push(at - committed.get(id)[1]);
  }
  latencies.sort((a, b) => a - b);
  const pick = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return {
    offered,
    messages: latencies.length,
    p50: pick(0.5),
    p99: pick(0.99),
    max: latencies.at(-1),
    cpuUs: cpu / total,
  };
}

function report(samples) {
  const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
  const figures = {};
  const rows = Object.entries(samples).map(([name, runs]) => {
    figures[name] = { p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)) };
    return {
      candidate: name === 'api' ? 'api' : 'bare node:http + pg',
      'offered/s': Math.round(median(runs.map((r) => r.offered))),
      'messages/round': runs[0].messages,
      'p50 ms': figures[name].p50.toFixed(1),
      'p99 ms': figures[name].p99.toFixed(1),
      'p99 by round': runs.map((r) => r.p99.toFixed(1)).join(' / '),
      'max ms': median(runs.map((r) => r.max)).toFixed(1),
      'CPU µs/event': Math.round(median(runs.map((r) => r.cpuUs))),
    };
  });
  console.log(
    `event stream, Node ${process.version}, ${availableParallelism()} cores: ${RATE} events/s for ${SECONDS} s, ` +
      `${ORGS} organisations x ${STREAMS_PER_ORG} streams, ${PRODUCERS} producer connections; ` +
      `medians of ${ROUNDS} interleaved rounds`,
  );
  console.table(rows);
  const p99 = figures.api.p99;
  console.log(
    `target: p99 <= 50 ms at ${RATE}/s with ${ORGS * STREAMS_PER_ORG} streams: ${p99 <= 50 ? 'met' : 'NOT met'} (${p99.toFixed(1)} ms)`,
  );
  console.log(`api p99 / reference p99: ${(p99 / figures.bare.p99).toFixed(2)}`);
}
