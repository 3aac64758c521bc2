// The event log's retention on a few million rows: what pruning costs as the worker does it (pruneEvents from
// @svc/db, batched deletes through the per-organisation index), against the two other ways considered, on
// the same data: one DELETE for everything old, and daily time partitions dropped whole. One embedded
// PostgreSQL; BENCH_EVENTS events (3,000,000) over BENCH_ORGS organisations (1,000) and BENCH_DAYS days (40),
// written in time order as a live table is, each with one delivery attempt (webhook_attempts cascades).
//   prune: events older than 30 days, batch by batch: batches, time per batch (median, max), events/s;
//     meanwhile single-event transactions at 200/s as the api writes them, and their commit latency
//     against the same load with no pruning;
//   a run with nothing to delete (what most runs of the schedule are);
//   one DELETE of the same rows (after a fresh copy): its time, which is how long it holds its row locks;
//   partitions: the same events in 40 daily partitions: dropping the 10 oldest, and what they cost the
//     reads by id (the worker loads 100 events by id per batch; the log's GET by id).
// Not a timed test: it prints the figures docs/decisions.md, "Events: retention and pruning" rests on. Run:
// node bench/events-retention.bench.mjs.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

import { openDatabase, pruneEvents } from '@svc/db';
import { startEmbeddedPostgres } from '@svc/db/dev';
import pg from 'pg';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 3_000_000);
const ORGS = Number(process.env.BENCH_ORGS ?? 1000);
const DAYS = Number(process.env.BENCH_DAYS ?? 40);
const RETENTION_DAYS = 30;
const WRITE_RATE = 200;

const dir = await mkdtemp(join(tmpdir(), 'svc-retention-bench-'));
const postgres = await startEmbeddedPostgres({ dir, persistent: false });
try {
  await postgres.createDatabase('retention');
  const url = postgres.url('retention');
  const dataSource = await openDatabase({ url, applicationName: 'bench-retention', poolSize: 4 });
  const pool = new pg.Pool({ connectionString: url, max: 6 });
  const before = new Date(Date.now() - RETENTION_DAYS * 86_400_000);
  try {
    let t = performance.now();
    await fill(pool);
    console.log(`filled ${EVENTS.toLocaleString('en-US')} events and attempts in ${seconds(t)} s`);
    const [{ old }] = (
      await pool.query('SELECT count(*)::int AS old FROM events WHERE created_at < $1', [before])
    ).rows;
    console.log(`${old.toLocaleString('en-US')} events older than ${RETENTION_DAYS} days`);
    const sizes = await tableSizes(pool);

    await pool.query('CREATE TABLE events_copy AS SELECT * FROM events WHERE created_at < $1', [before]);
    await pool.query(
      'CREATE TABLE attempts_copy AS SELECT a.* FROM webhook_attempts a JOIN events_copy e ON e.id = a.event_id',
    );
    const quiet = await writes(pool, 5000);

    // Pruning as the worker does it, batch by batch, with the api's writes going on.
    const batches = [];
    const writing = writes(pool);
    t = performance.now();
    for (;;) {
      const start = performance.now();
      const result = await pruneEvents(dataSource, { before, budgetMs: 0 });
      batches.push(performance.now() - start);
      if (result.done) break;
    }
    const pruneSeconds = (performance.now() - t) / 1000;
    const busy = await writing.stop();
    const idle = performance.now();
    await pruneEvents(dataSource, { before });
    const idleMs = performance.now() - idle;

    // One DELETE for the same rows, put back first.
    await pool.query('INSERT INTO events SELECT * FROM events_copy');
    await pool.query('INSERT INTO webhook_attempts SELECT * FROM attempts_copy');
    await pool.query('VACUUM ANALYZE events');
    await pool.query('VACUUM ANALYZE webhook_attempts');
    t = performance.now();
    const { rowCount } = await pool.query('DELETE FROM events WHERE created_at < $1', [before]);
    const oneDeleteSeconds = seconds(t);

    const partitions = await partitioned(pool, before);

    console.log(
      `\nretention on ${EVENTS.toLocaleString('en-US')} events (${sizes}), ${ORGS} organisations, ${DAYS} days; Node ${process.version}, ${availableParallelism()} cores`,
    );
    console.table({
      'batched (pruneEvents, 5,000 a batch)': {
        deleted: old,
        seconds: pruneSeconds.toFixed(1),
        'events/s': Math.round(old / pruneSeconds),
        batches: batches.length,
        'batch p50 ms': median(batches).toFixed(0),
        'batch max ms': Math.max(...batches).toFixed(0),
      },
      'one DELETE': {
        deleted: rowCount,
        seconds: oneDeleteSeconds,
        'events/s': Math.round(rowCount / oneDeleteSeconds),
      },
    });
    console.log(`a run with nothing to delete: ${idleMs.toFixed(1)} ms`);
    console.table({
      'api writes, no pruning': quiet,
      'api writes while pruning': busy,
    });
    console.table(partitions);
  } finally {
    await pool.end();
    await dataSource.destroy();
  }
} finally {
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}

/** Organisations, then the events in time order with one attempt each, in chunks. */
async function fill(pool) {
  await pool.query(
    `INSERT INTO organisations (name, kyc_domain, plan, support_emails, policy)
     SELECT 'org ' || n, 'example.com', 'STANDARD', '{}', '{}' FROM generate_series(1, $1) n`,
    [ORGS],
  );
  const { rows } = await pool.query('SELECT min(id)::int AS first FROM organisations');
  const first = rows[0].first;
  const chunk = 250_000;
  for (let done = 0; done < EVENTS; done += chunk) {
    const size = Math.min(chunk, EVENTS - done);
    await pool.query(
      `WITH e AS (
         INSERT INTO events (id, org_id, entity, data, status, created_at, updated_at)
         SELECT gen_random_uuid(), $1 + (n * 7919) % $2, 'Users',
                json_build_object('orgUserId', 'user-' || n, 'kyc', false, 'tnc', true, 'userStatus', 'ACTIVE'),
                'DELIVERED', at, at
           FROM (SELECT n, now() - $5 * interval '1 day' * (1 - n::float8 / $4) AS at
                   FROM generate_series($3::bigint + 1, $3::bigint + $6) n) s
          ORDER BY at
       RETURNING id, org_id, created_at)
       INSERT INTO webhook_attempts (event_id, org_id, url, num_retries, attempted_at, duration_ms, status_code, response, delivered)
       SELECT id, org_id, 'https://hooks.example.com/', 0, created_at, 12, 200, '', true FROM e`,
      [first, ORGS, done, EVENTS, DAYS, size],
    );
  }
  await pool.query('VACUUM ANALYZE');
}

async function tableSizes(pool) {
  const { rows } = await pool.query(
    `SELECT pg_size_pretty(pg_total_relation_size('events')) AS events,
            pg_size_pretty(pg_total_relation_size('webhook_attempts')) AS attempts`,
  );
  return `events ${rows[0].events}, attempts ${rows[0].attempts}`;
}

/**
 * Single-event transactions at WRITE_RATE/s, as the api commits them, until stopped (or for `ms`): their
 * commit latency, p50 and p99.
 */
function writes(pool, ms) {
  const latencies = [];
  let running = true;
  const loop = (async () => {
    const start = performance.now();
    for (let n = 0; running; n++) {
      const wait = start + (n * 1000) / WRITE_RATE - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const t = performance.now();
      await pool.query(
        `INSERT INTO events (id, org_id, entity, data) SELECT $1, min(id), 'Users', '{"n":1}' FROM organisations`,
        [randomUUID()],
      );
      latencies.push(performance.now() - t);
      if (ms !== undefined && performance.now() - start > ms) break;
    }
  })();
  const summary = () => {
    latencies.sort((a, b) => a - b);
    const pick = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
    return { writes: latencies.length, 'p50 ms': pick(0.5).toFixed(2), 'p99 ms': pick(0.99).toFixed(2) };
  };
  if (ms !== undefined) return loop.then(summary);
  return {
    async stop() {
      running = false;
      await loop;
      return summary();
    },
  };
}

/**
 * The same events in daily range partitions (a primary key must then include created_at, and no foreign
 * key can point at the id alone): dropping the old ones, and reads by id against the plain table.
 */
async function partitioned(pool, before) {
  await pool.query(
    `CREATE TABLE events_by_day (LIKE events INCLUDING DEFAULTS) PARTITION BY RANGE (created_at)`,
  );
  await pool.query('ALTER TABLE events_by_day ADD PRIMARY KEY (id, created_at)');
  const day = 86_400_000;
  const start = Math.floor((Date.now() - (DAYS + 1) * day) / day) * day;
  for (let at = start; at < Date.now() + day; at += day) {
    const name = `events_by_day_${new Date(at).toISOString().slice(0, 10).replaceAll('-', '')}`;
    await pool.query(
      `CREATE TABLE ${name} PARTITION OF events_by_day FOR VALUES FROM ('${new Date(at).toISOString()}') TO ('${new Date(at + day).toISOString()}')`,
    );
  }
  await pool.query('INSERT INTO events_by_day SELECT * FROM events_copy');
  await pool.query('INSERT INTO events_by_day SELECT * FROM events');
  await pool.query('VACUUM ANALYZE events_by_day');
  const { rows: ids } = await pool.query('SELECT id FROM events ORDER BY random() LIMIT 10000');
  const lookups = async (table) => {
    const times = [];
    for (let i = 0; i < 100; i++) {
      const batch = ids.slice(i * 100, i * 100 + 100).map((row) => row.id);
      const t = performance.now();
      await pool.query(`SELECT id, data::text FROM ${table} WHERE id = ANY($1::uuid[])`, [batch]);
      times.push(performance.now() - t);
    }
    const one = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      await pool.query(`SELECT id, data::text FROM ${table} WHERE id = $1`, [ids[i].id]);
      one.push(performance.now() - t);
    }
    return { '100 by id, median ms': median(times).toFixed(2), '1 by id, median ms': median(one).toFixed(3) };
  };
  const plain = await lookups('events');
  const byDay = await lookups('events_by_day');
  const { rows: old } = await pool.query(
    `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'events_by_day'::regclass
        AND pg_get_expr(c.relpartbound, c.oid) ~ 'TO' ORDER BY c.relname`,
  );
  const dropped = old.filter((row) => {
    const date = row.relname.slice(-8);
    return (
      new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6)}T00:00:00Z`).getTime() + day <=
      before.getTime()
    );
  });
  const t = performance.now();
  for (const { relname } of dropped) await pool.query(`DROP TABLE ${relname}`);
  const dropMs = performance.now() - t;
  return {
    'plain table (as kept)': plain,
    [`${old.length} daily partitions`]: { ...byDay, [`drop ${dropped.length} old, ms`]: dropMs.toFixed(0) },
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

function seconds(since) {
  return ((performance.now() - since) / 1000).toFixed(1);
}
