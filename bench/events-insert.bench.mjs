// What the event log and stream add to the hot path: every order and user write inserts an event with its
// delivery job in the write's transaction. The same transaction (the events INSERT of EventsRepository and
// pg-boss's job insert over the same connection, as bossDb sends it) on two databases of one PostgreSQL:
// one migrated to the schema before the event log (migration 1795500000000-EventLog undone) with the INSERT
// as it was, one with it (position, txid, the stream index, the log index on three columns) and the INSERT
// that also sends the streams' NOTIFY. CONNECTIONS
// writers for SECONDS, interleaved rounds, the order turning; transactions per second and PostgreSQL CPU
// per transaction (from /proc, the backends of each database). Not a timed test: it prints figures.
// Run: node bench/events-insert.bench.mjs. Knobs: BENCH_ROUNDS (5), BENCH_SECONDS (5), BENCH_CONNECTIONS (8).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

import { EVENTS_CHANNEL, QUEUES, bossDb, openDatabase, startBoss } from '@svc/db';
import { startEmbeddedPostgres } from '@svc/db/dev';

import { cpuSince, databaseCpu } from './lib/proc-cpu.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const DATA = JSON.stringify({
  orgUserId: 'user-1001',
  orgId: 1,
  kyc: false,
  tnc: true,
  userStatus: 'PENDING',
  userType: 'CONSUMER',
});

const dir = await mkdtemp(join(tmpdir(), 'svc-insert-bench-'));
const postgres = await startEmbeddedPostgres({ dir, persistent: false });
const candidates = [];
try {
  candidates.push(await candidate('before', 0, true), await candidate('with event log', 1, false));
  for (const c of candidates) await run(c, 1); // warm-up
  const samples = new Map(candidates.map((c) => [c.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < candidates.length; i++) {
      const c = candidates[(i + round) % candidates.length];
      await c.dataSource.query('VACUUM ANALYZE events');
      samples.get(c.name).push(await run(c, SECONDS));
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
  console.log(
    `event insert + job transaction, Node ${process.version}, ${availableParallelism()} cores, ${CONNECTIONS} connections, ` +
      `median of ${ROUNDS} interleaved rounds of ${SECONDS} s`,
  );
  console.table(
    Object.fromEntries(
      [...samples].map(([name, runs]) => [
        name,
        {
          'transactions/s': Math.round(median(runs.map((r) => r.perSecond))),
          'by round': runs.map((r) => Math.round(r.perSecond)).join(' / '),
          'PG CPU µs/transaction': Math.round(median(runs.map((r) => r.dbUs))),
        },
      ]),
    ),
  );
} finally {
  for (const c of candidates) {
    await c.boss.stop({ graceful: false });
    await c.dataSource.destroy();
  }
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}

async function candidate(name, index, undo) {
  const database = `insert_${index}`;
  await postgres.createDatabase(database);
  const url = postgres.url(database);
  const dataSource = await openDatabase({ url, poolSize: CONNECTIONS, applicationName: `bench-${database}` });
  if (undo) {
    const [last] = await dataSource.query('SELECT name FROM migrations ORDER BY id DESC LIMIT 1');
    if (last.name !== 'EventLog1795500000000') throw new Error(`the last migration is ${last.name}`);
    await dataSource.undoLastMigration({ transaction: 'each' });
  }
  const [org] = await dataSource.query(
    `INSERT INTO organisations (name, kyc_domain, plan, policy) VALUES ('bench', 'example.com', 'STANDARD', '{}') RETURNING id`,
  );
  const boss = await startBoss({ url, supervise: false, listen: false }, (error) => console.error(error));
  // The statement EventsRepository sends: before the event log, the INSERT alone; with it, the INSERT and
  // the NOTIFY that wakes the streams, in one statement.
  const insert = undo
    ? 'INSERT INTO events (id, org_id, entity, event_type, data) VALUES ($1, $2, $3, $4, $5)'
    : `WITH inserted AS (
         INSERT INTO events (id, org_id, entity, event_type, data) VALUES ($1, $2, $3, $4, $5) RETURNING org_id)
       SELECT pg_notify($6, org_id::text) FROM inserted`;
  return { name, database, dataSource, boss, orgId: org.id, insert, notify: !undo };
}

/** CONNECTIONS writers for `seconds`, each committing one event and its job per transaction. */
async function run(c, seconds) {
  const dbBefore = databaseCpu(c.database);
  let count = 0;
  const until = performance.now() + seconds * 1000;
  const writer = async () => {
    while (performance.now() < until) {
      const runner = c.dataSource.createQueryRunner();
      try {
        await runner.startTransaction();
        const id = randomUUID();
        await runner.query(c.insert, [
          id,
          c.orgId,
          'Users',
          null,
          DATA,
          ...(c.notify ? [EVENTS_CHANNEL] : []),
        ]);
        await c.boss.send(QUEUES.webhookDelivery, { eventId: id }, { db: bossDb(runner) });
        await runner.commitTransaction();
        count++;
      } finally {
        await runner.release();
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, writer));
  const elapsed = (performance.now() - start) / 1000;
  return { perSecond: count / elapsed, dbUs: (cpuSince(dbBefore, databaseCpu(c.database)) * 1e6) / count };
}
