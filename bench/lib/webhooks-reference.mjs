// The reference of bench/webhooks.bench.mjs: webhook delivery with nothing but pg and undici, no queue
// library. The events table is the queue: each of LOOPS loops locks a batch of PENDING events (FOR UPDATE
// SKIP LOCKED, on a partial index of its own), POSTs them signed as the worker does (same body, same
// @svc/protocol headers, same 1 s limits), writes the attempts and DELIVERED, and commits. A NOTIFY on
// `webhook_events` wakes one idle loop. No retry schedule, no per-endpoint cap, no e-mail: a failed
// attempt stays PENDING. Run as a child: DATABASE_URL, MASTER_KEY; prints `ready` once listening.
import { decryptSecret } from '@svc/db';
import { webhookHeaders } from '@svc/protocol';
import pg from 'pg';
import { Agent, request } from 'undici';

// The worker's shape, from the worker's variables and defaults: fetchers and the batch each takes.
const LOOPS = Number(process.env.WEBHOOK_FETCHERS ?? 12);
const BATCH = Number(process.env.WEBHOOK_BATCH_SIZE ?? 100);
const masterKey = Buffer.from(process.env.MASTER_KEY, 'base64');
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: LOOPS + 1 });
const agent = new Agent({
  keepAliveTimeout: 4000,
  connect: { timeout: 1000 },
  headersTimeout: 1000,
  bodyTimeout: 1000,
});
const secrets = new Map();

await pool.query(`CREATE INDEX IF NOT EXISTS events_pending ON events (created_at) WHERE status = 'PENDING'`);
const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
await listener.connect();
await listener.query('LISTEN webhook_events');
const idle = [];
listener.on('notification', () => idle.shift()?.());

for (let i = 0; i < LOOPS; i++) void loop();
console.log('ready');
process.on('SIGTERM', () => process.exit(0));

async function loop() {
  for (;;) {
    const count = await deliverBatch().catch((error) => {
      console.error('reference batch failed:', error.message);
      return 0;
    });
    if (count < BATCH) await wake(500);
  }
}

/** Resolves on the next notification this loop is given, or after `ms`. */
function wake(ms) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      const at = idle.indexOf(done);
      if (at >= 0) idle.splice(at, 1);
      resolve();
    };
    const timer = setTimeout(done, ms);
    idle.push(done);
  });
}

async function deliverBatch() {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query(
      `SELECT e.id, e.org_id, e.entity, e.event_type, e.data, e.num_retries, e.created_at, e.updated_at,
              w.url, w.secret_ciphertext
         FROM events e JOIN webhook_endpoints w ON w.org_id = e.org_id AND w.status = 'ACTIVE'
        WHERE e.status = 'PENDING'
        ORDER BY e.created_at LIMIT $1 FOR UPDATE OF e SKIP LOCKED`,
      [BATCH],
    );
    const results = await Promise.all(rows.map(send));
    if (rows.length > 0) {
      await client.query(
        `INSERT INTO webhook_attempts (event_id, org_id, url, num_retries, attempted_at, duration_ms, status_code, response, delivered)
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::int[], $5::timestamptz[], $6::int[], $7::int[], $8::text[], $9::bool[])`,
        [
          rows.map((row) => row.id),
          rows.map((row) => row.org_id),
          rows.map((row) => row.url),
          rows.map((row) => row.num_retries),
          results.map((result) => result.startedAt),
          results.map((result) => result.durationMs),
          results.map((result) => result.status),
          results.map((result) => result.response),
          results.map((result) => result.status === 200),
        ],
      );
      await client.query(
        `UPDATE events SET status = 'DELIVERED', updated_at = now() WHERE id = ANY($1::uuid[])`,
        [rows.filter((_, i) => results[i].status === 200).map((row) => row.id)],
      );
    }
    await client.query('COMMIT');
    return rows.length;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function send(row) {
  const startedAt = new Date();
  const started = performance.now();
  const event = {
    orgId: row.org_id,
    entity: row.entity,
    ...(row.event_type === null ? {} : { eventType: row.event_type }),
    numRetries: row.num_retries,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  const body = JSON.stringify({ event, data: row.data });
  let secret = secrets.get(row.secret_ciphertext);
  if (secret === undefined) {
    secret = decryptSecret(masterKey, row.secret_ciphertext);
    secrets.set(row.secret_ciphertext, secret);
  }
  try {
    const answer = await request(row.url, {
      dispatcher: agent,
      method: 'POST',
      headers: { ...webhookHeaders(body, secret, { eventId: row.id }), 'user-agent': 'svc-reference/1' },
      body,
      signal: AbortSignal.timeout(1000),
    });
    const response = (await answer.body.text()).slice(0, 1024);
    return {
      startedAt,
      durationMs: Math.round(performance.now() - started),
      status: answer.statusCode,
      response,
    };
  } catch (error) {
    return {
      startedAt,
      durationMs: Math.round(performance.now() - started),
      status: null,
      response: error.message,
    };
  }
}
