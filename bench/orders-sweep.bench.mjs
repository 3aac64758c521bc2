// One price move that crosses 10,000 of 100,000 resting orders over 100 pairs: the time from the operator's
// PUT /api/v1/admin/prices/{symbol}/ to its answer, which the api gives once the pair's sweep has committed
// every batch (docs/decisions.md, "Orders: the book and the sweep"): each crossing order filled once, with its fill row,
// its position and its Orders event, in batches of SWEEP_BATCH per transaction.
// The book: 10,000 users; the moved pair holds 20,000 LIMIT BUYs (10,000 at 49,000, which the move to 48,000
// crosses, and 10,000 at 47,000), the other 99 pairs 80,000 that no move reaches. The orders are copies of
// one placed through the api (every column as the api wrote it, with its PENDING event), made in SQL: 100,000
// signed placements would take the run's time. Each round puts the book back (the fills, positions and
// events of the sweep deleted, the orders PENDING again, the price 50,000 again) and moves the price again.
// After every round: 10,000 COMPLETED with exactly one fill and one COMPLETED event each, the rest PENDING.
// Run: node bench/orders-sweep.bench.mjs (after a build). Target: the last event committed within 1 s of
// the price move. Knobs: BENCH_ROUNDS (3), BENCH_ORDERS (100000), BENCH_CROSSING (10000), BENCH_PAIRS (100),
// BENCH_USERS (10000), BENCH_LOG_LEVEL (warn), BENCH_PG_STATEMENTS=1 (the sweep's statements per round, from
// pg_stat_statements: calls, total and mean time), BENCH_CPU_PROF=<dir> (a .cpuprofile of the api process).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import { openDatabase } from '@svc/db';
import { startEmbeddedPostgres } from '@svc/db/dev';

import { apiEnv, median, startServer } from './lib/http-bench.mjs';
import { call, signedHeaders } from './lib/seed.mjs';
import { bootstrapOperator } from '../scripts/bootstrap-operator.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const CROSSING = Number(process.env.BENCH_CROSSING ?? 10_000);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 100);
const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const PG_STATEMENTS = process.env.BENCH_PG_STATEMENTS === '1';
const CPU_PROF = process.env.BENCH_CPU_PROF;
// No periodic sweep: the price move's own sweep is what is timed.
const env = apiEnv({ LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', ORDER_SWEEP_MS: '0' });
const MOVED = 'A00_EUR';
const assets = Array.from({ length: PAIRS }, (_, i) => `A${String(i).padStart(2, '0')}`);

const dir = await mkdtemp(join(tmpdir(), 'svc-sweep-bench-'));
const postgres = await startEmbeddedPostgres({
  dir,
  persistent: false,
  settings: PG_STATEMENTS ? { shared_preload_libraries: 'pg_stat_statements' } : {},
});
let server;
let db;
try {
  await postgres.createDatabase('bench_sweep');
  const url = postgres.url('bench_sweep');
  server = await startServer('api', { url, env, cpuProfDir: CPU_PROF });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  db = await openDatabase({ url, applicationName: 'bench-seed' });
  const started = Date.now();
  const { admin, orgId } = await seedBook(baseUrl);
  console.log(
    `seeded ${ORDERS.toLocaleString('en-US')} resting orders in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (PG_STATEMENTS) await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');

  const results = [];
  for (let round = 0; round < ROUNDS; round++) {
    await resetBook(orgId);
    if (PG_STATEMENTS) await db.query('SELECT pg_stat_statements_reset()');
    const load = loadavg()[0];
    const t0 = performance.now();
    const wall = Date.now();
    await admin('PUT', `/api/v1/admin/prices/${MOVED}/`, { price: 48000 });
    const ms = performance.now() - t0;
    const [last] = await db.query(
      `SELECT extract(epoch FROM max(created_at)) * 1000 AS at FROM events WHERE entity = 'Orders' AND data->>'status' = 'COMPLETED'`,
    );
    await checkRound(orgId);
    results.push({ ms, load, lastBatchStart: Number(last.at) - wall });
    console.log(
      `round ${round + 1}: ${CROSSING.toLocaleString('en-US')} fills committed ${ms.toFixed(0)} ms after the move ` +
        `(the last batch began at ${(Number(last.at) - wall).toFixed(0)} ms), load average ${load.toFixed(1)}`,
    );
    if (PG_STATEMENTS) await reportStatements();
  }
  const ms = median(results.map((r) => r.ms));
  console.log(
    `price move to last event committed, ${CROSSING.toLocaleString('en-US')} of ${ORDERS.toLocaleString('en-US')} ` +
      `orders over ${PAIRS} pairs, median of ${ROUNDS}: ${ms.toFixed(0)} ms ` +
      `(${Math.round((CROSSING / ms) * 1000).toLocaleString('en-US')} fills/s), load average ` +
      `${results.map((r) => r.load.toFixed(1)).join(', ')}`,
  );
  console.log(`target: within 1 s: ${ms <= 1000 ? 'met' : 'NOT met'} (${ms.toFixed(0)} ms)`);
} finally {
  await db?.destroy();
  await server?.stop();
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}

/**
 * The organisation, its policy over PAIRS assets, the prices, USERS users and ORDERS resting orders with
 * their PENDING events: one user and one order through the api, the rest copied from them in SQL.
 */
async function seedBook(baseUrl) {
  const { operatorToken } = await bootstrapOperator(baseUrl, env.ADMIN_TOKEN);
  const admin = (method, path, body) =>
    call(baseUrl, method, path, {
      headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const org = await admin('POST', '/api/v1/admin/orgs/', {
    name: 'sweep bench',
    kycDomain: 'example.com',
    plan: 'ENTERPRISE',
    supportEmails: ['support@example.com'],
  });
  const orgId = org.orgId;
  const key = await admin('POST', `/api/v1/admin/orgs/${orgId}/api-keys/`, { label: 'bench' });
  const credentials = { apiKey: key.apiKey, apiSecret: key.apiSecret };
  // Every limit set, high, so that the sweep's checks all run.
  await admin('PATCH', `/api/v1/admin/orgs/${orgId}/policy/`, {
    enabledAssets: assets,
    quoteLimit: { EUR: 1000000 },
    totalLimit: { EUR: 100000000000 },
    totalExposure: { EUR: 100000000000 },
    assetExposure: Object.fromEntries(assets.map((asset) => [asset, 1000000])),
    commissionRate: 0.0015,
    vatRate: 0.21,
  });
  for (const asset of assets) await admin('PUT', `/api/v1/admin/prices/${asset}_EUR/`, { price: 50000 });
  const signed = (path, body) =>
    call(baseUrl, 'POST', path, { headers: signedHeaders(credentials, path, body), body });
  await signed('/api/v1/user/', JSON.stringify({ orgUserId: 'trader-0', kyc: true, tnc: true }));
  const template = await signed(
    '/api/v1/orders/',
    JSON.stringify({
      orgUserId: 'trader-0',
      clientOrderId: randomUUID(),
      symbol: MOVED,
      side: 'BUY',
      type: 'LIMIT',
      quantity: 0.001,
      limitPrice: 49000,
    }),
  );
  await db.query(
    `INSERT INTO users (org_id, org_user_id, kyc, tnc, user_status, user_type, kyc_state)
     SELECT org_id, 'trader-' || n, kyc, tnc, user_status, user_type, kyc_state
       FROM users, generate_series(1, $2 - 1) AS n WHERE org_id = $1 AND org_user_id = 'trader-0'`,
    [orgId, USERS],
  );
  // Order n: user n % USERS; the first 2 x CROSSING on the moved pair (even n at 49,000, odd at 47,000),
  // the rest over the other pairs.
  const columns = (
    await db.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'orders'
       AND column_name NOT IN ('id', 'user_id', 'org_user_id', 'client_order_id', 'symbol', 'limit_price', 'created_at', 'updated_at')`,
    )
  ).map((row) => row.column_name);
  await db.query(
    `INSERT INTO orders (user_id, org_user_id, client_order_id, symbol, limit_price, ${columns.join(', ')})
     SELECT u.id, u.org_user_id, gen_random_uuid(),
            CASE WHEN n < 2 * $3 THEN $4 ELSE 'A' || lpad((1 + n % ($5 - 1))::text, 2, '0') || '_EUR' END,
            CASE WHEN n < 2 * $3 AND n % 2 = 0 THEN 49000 ELSE 47000 END,
            ${columns.map((column) => `t.${column}`).join(', ')}
       FROM generate_series(1, $2 - 1) AS n
       JOIN users u ON u.org_id = $1 AND u.org_user_id = 'trader-' || (n % $6)
       CROSS JOIN (SELECT * FROM orders WHERE id = $7) t`,
    [orgId, ORDERS, CROSSING, MOVED, PAIRS, USERS, template.id],
  );
  // Their PENDING events, as the placements wrote them.
  await db.query(
    `INSERT INTO events (id, org_id, entity, event_type, data)
     SELECT gen_random_uuid(), o.org_id, 'Orders', NULL,
            (e.data::jsonb || jsonb_build_object('id', o.id, 'clientOrderId', o.client_order_id,
                                                 'orgUserId', o.org_user_id, 'symbol', o.symbol,
                                                 'limitPrice', o.limit_price))::json
       FROM orders o CROSS JOIN (SELECT data FROM events WHERE entity = 'Orders' AND (data->>'id')::bigint = $2) e
      WHERE o.org_id = $1 AND o.id <> $2`,
    [orgId, template.id],
  );
  await db.query('ANALYZE');
  return { admin, orgId };
}

/** The book as seeded: the sweep's fills, positions and events gone, every order PENDING at 50,000. */
async function resetBook(orgId) {
  await db.query(`DELETE FROM events WHERE entity = 'Orders' AND data->>'status' <> 'PENDING'`);
  await db.query('DELETE FROM order_fills');
  await db.query('DELETE FROM positions');
  await db.query(
    `UPDATE orders SET status = 'PENDING', filled = 0, price = 0, average_price = 0, base_average_price = 0,
            quote_quantity = 0, commission_amount = 0, vat_amount = 0, net_executed_amount = 0,
            total_executed_amount = 0, cancel_reason = NULL
      WHERE org_id = $1 AND status <> 'PENDING'`,
    [orgId],
  );
  await db.query(`UPDATE prices SET price = 50000 WHERE symbol = $1`, [MOVED]);
  await db.query('VACUUM ANALYZE orders, order_fills, positions, events');
}

/** Every crossing order filled once with one COMPLETED event; every other order untouched. */
async function checkRound(orgId) {
  const [row] = await db.query(
    `SELECT count(*) FILTER (WHERE status = 'COMPLETED')::int AS completed,
            count(*) FILTER (WHERE status = 'PENDING')::int AS pending,
            (SELECT count(*)::int FROM order_fills) AS fills,
            (SELECT count(DISTINCT order_id)::int FROM order_fills) AS filled_orders,
            (SELECT count(*)::int FROM events WHERE entity = 'Orders' AND data->>'status' = 'COMPLETED') AS events,
            (SELECT count(DISTINCT data->>'id')::int FROM events WHERE entity = 'Orders' AND data->>'status' = 'COMPLETED') AS announced,
            (SELECT sum(quantity)::text FROM positions) AS held
       FROM orders WHERE org_id = $1`,
    [orgId],
  );
  const want = {
    completed: CROSSING,
    pending: ORDERS - CROSSING,
    fills: CROSSING,
    filled_orders: CROSSING,
    events: CROSSING,
    announced: CROSSING,
    held: (CROSSING * 0.001).toFixed(8),
  };
  if (JSON.stringify(row) !== JSON.stringify(want)) {
    throw new Error(`the sweep did not fill each crossing order once: ${JSON.stringify(row)}`);
  }
}

/** The round's statements, most time first. */
async function reportStatements() {
  const rows = await db.query(
    `SELECT calls, round(total_exec_time)::int AS total_ms, round(mean_exec_time::numeric, 2)::float AS mean_ms,
            left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'bench_sweep')
      ORDER BY total_exec_time DESC LIMIT 12`,
  );
  console.table(rows);
}
