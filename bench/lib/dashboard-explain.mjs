// EXPLAIN (ANALYZE, BUFFERS) of the statements the dashboard's pages make that read the most rows, for
// bench/dashboard.bench.mjs with BENCH_EXPLAIN=1. A statement named "without <index>" is the same one with
// its filter column wrapped (`status || ''`), so the planner cannot use that index: what it costs without.
import pg from 'pg';

/** EXPLAIN ANALYZE of the statements the dashboard's pages make that read the most rows. */
export async function explain(url, org) {
  const { orgId, user } = org;
  const since = new Date(Date.now() - 24 * 3600_000);
  const statements = [
    [
      'KYC history',
      `SELECT e.id, e.event_type, e.created_at, r.message FROM events e LEFT JOIN kyc_reviews r ON r.event_id = e.id
        WHERE e.org_id = $1 AND e.entity = 'Users' AND e.event_type IS NOT NULL AND e.data->>'orgUserId' = $2
        ORDER BY e.created_at DESC, e.id DESC LIMIT 100`,
      [orgId, user],
    ],
    [
      'events of 24 h by status',
      'SELECT status, count(*)::int FROM events WHERE org_id = $1 AND created_at > $2 GROUP BY status',
      [orgId, since],
    ],
    [
      'attempts of 24 h',
      `SELECT count(*) FILTER (WHERE delivered), count(*) FILTER (WHERE NOT delivered),
              max(attempted_at) FILTER (WHERE delivered), max(attempted_at) FILTER (WHERE NOT delivered)
         FROM webhook_attempts WHERE org_id = $1 AND attempted_at > $2`,
      [orgId, since],
    ],
    ['users newest first', 'SELECT * FROM users WHERE org_id = $1 ORDER BY id DESC LIMIT 21', [orgId]],
    [
      'users prefix search',
      `SELECT * FROM users WHERE org_id = $1 AND org_user_id LIKE $2 ORDER BY id DESC LIMIT 21`,
      [orgId, 'user-0042%'],
    ],
    [
      'users prefix, no match',
      `SELECT * FROM users WHERE org_id = $1 AND org_user_id LIKE $2 ORDER BY id DESC LIMIT 21`,
      [orgId, 'nobody%'],
    ],
    [
      'users by status',
      `SELECT * FROM users WHERE org_id = $1 AND user_status = $2 ORDER BY id DESC LIMIT 21`,
      [orgId, 'SUSPENDED'],
    ],
    [
      'events newest first',
      'SELECT * FROM events WHERE org_id = $1 ORDER BY created_at DESC, position DESC LIMIT 21',
      [orgId],
    ],
    [
      'events FAILED',
      `SELECT * FROM events WHERE org_id = $1 AND status = 'FAILED' ORDER BY created_at DESC, position DESC LIMIT 21`,
      [orgId],
    ],
    [
      'events FAILED, without events_org_filters',
      `SELECT * FROM events WHERE org_id = $1 AND (status || '') = 'FAILED' ORDER BY created_at DESC, position DESC LIMIT 21`,
      [orgId],
    ],
    [
      'events SKIPPED (none)',
      `SELECT * FROM events WHERE org_id = $1 AND status = 'SKIPPED' ORDER BY created_at DESC, position DESC LIMIT 21`,
      [orgId],
    ],
    [
      'events SKIPPED (none), without events_org_filters',
      `SELECT * FROM events WHERE org_id = $1 AND (status || '') = 'SKIPPED' ORDER BY created_at DESC, position DESC LIMIT 21`,
      [orgId],
    ],
    [
      'events SystemInformation (none)',
      `SELECT * FROM events WHERE org_id = $1 AND entity = 'SystemInformation' ORDER BY created_at DESC, position DESC LIMIT 21`,
      [orgId],
    ],
    [
      'events SystemInformation (none), without events_org_filters',
      `SELECT * FROM events WHERE org_id = $1 AND (entity || '') = 'SystemInformation' ORDER BY created_at DESC, position DESC LIMIT 21`,
      [orgId],
    ],
    [
      'events KYC_EXPIRED of Orders (none)',
      `SELECT * FROM events WHERE org_id = $1 AND entity = 'Orders' AND event_type = 'KYC_EXPIRED' ORDER BY created_at DESC, position DESC LIMIT 21`,
      [orgId],
    ],
    [
      'events KYC_RFI',
      `SELECT * FROM events WHERE org_id = $1 AND entity = 'Users' AND event_type = 'KYC_RFI'
        ORDER BY created_at DESC, position DESC LIMIT 21`,
      [orgId],
    ],
    ['orders newest first', 'SELECT * FROM orders WHERE org_id = $1 ORDER BY id DESC LIMIT 21', [orgId]],
    [
      'orders of a user',
      'SELECT * FROM orders WHERE org_id = $1 AND org_user_id = $2 ORDER BY id DESC LIMIT 21',
      [orgId, user],
    ],
    [
      'orders rejected',
      'SELECT * FROM orders WHERE org_id = $1 AND status = $2 ORDER BY id DESC LIMIT 21',
      [orgId, 'REJECTED'],
    ],
  ];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const [name, sql, params] of statements) {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
      console.log(`\n-- ${name}\n${rows.map((row) => row['QUERY PLAN']).join('\n')}`);
    }
  } finally {
    await client.end();
  }
}
