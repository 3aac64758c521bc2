// The dashboard benchmark's volumes, written set-based (INSERT ... SELECT generate_series) straight into the
// database of an organisation created through the admin routes: users, their positions, orders, events (KYC
// events of users and order events, spread over 30 days, each with its webhook attempt) and the operator's
// reviews of rejections and requests for information. Rows are inserted in time order, so ids grow with
// created_at as they do in a live database; an organisation seeded later has the higher ids.
const KYC_TYPES = `ARRAY['KYC_PENDING','KYC_DOC_UPLOADED','KYC_FORM_SUBMITTED','KYC_RFI','KYC_REJECTED','KYC_COMPLETED','KYC_EXPIRED']`;
const DAYS = 30;

/** The orgUserId of user number `n` (1-based): `user-000042`. */
export function orgUserIdOf(n) {
  return `user-${String(n).padStart(6, '0')}`;
}

/**
 * Seeds `orgId` with `users` users, `orders` orders and `events` events, one webhook attempt per event
 * delivered or failed. Event g names user 1 + g % users: the users whose number ends in 1, 2 or 3 get KYC
 * events (three in ten of all events), the others order events. Answers the seconds each table took.
 */
export async function seedVolumes(client, orgId, { users, orders, events }) {
  const took = {};
  const step = async (name, sql, params) => {
    const started = performance.now();
    await client.query(sql, params);
    // Statistics before the next step joins on the table (its plan is a guess without them).
    await client.query(`ANALYZE ${name}`);
    took[name] = ((performance.now() - started) / 1000).toFixed(1);
  };
  const span = `interval '${DAYS} days'`;
  await step(
    'users',
    `INSERT INTO users (org_id, org_user_id, kyc, tnc, user_status, user_type, kyc_state, created_at, updated_at)
     SELECT $1, 'user-' || lpad(g::text, 6, '0'), g % 5 <> 0, true,
            (ARRAY['ACTIVE','ACTIVE','ACTIVE','PENDING','SUSPENDED'])[1 + g % 5],
            CASE WHEN g % 10 = 0 THEN 'BUSINESS' ELSE 'CONSUMER' END,
            (${KYC_TYPES})[1 + g % 7],
            now() - ${span} + (g::float8 / $2) * ${span}, now()
       FROM generate_series(1, $2) g`,
    [orgId, users],
  );
  await step(
    'positions',
    `INSERT INTO positions (user_id, asset, org_id, quantity)
     SELECT id, 'BTC', org_id, (id % 1000) / 100.0 FROM users WHERE org_id = $1`,
    [orgId],
  );
  await step(
    'orders',
    `INSERT INTO orders (org_id, user_id, org_user_id, client_order_id, symbol, side, type, amount_field,
                         quantity, quote_quantity, filled, status, price, average_price, estimated_price,
                         base_average_price, commission_rate, vat_rate, commission_amount, vat_amount,
                         net_executed_amount, total_executed_amount, commission_asset, rejection_reason,
                         created_at, updated_at)
     SELECT $1, u.id, u.org_user_id, gen_random_uuid(),
            CASE WHEN g % 3 = 0 THEN 'ETH_EUR' ELSE 'BTC_EUR' END, CASE WHEN g % 4 = 0 THEN 'SELL' ELSE 'BUY' END,
            'MARKET', 'quantity', 0.001, 50, 0.001,
            CASE WHEN g % 20 = 0 THEN 'REJECTED' ELSE 'COMPLETED' END,
            50000, 50000, 50000, 50000, 0.0015, 0.21, 0.075, 0.01575, 50, 50.09075, 'EUR',
            CASE WHEN g % 20 = 0 THEN 'QUOTE_LIMIT' END,
            now() - ${span} + (g::float8 / $2) * ${span}, now() - ${span} + (g::float8 / $2) * ${span}
       FROM generate_series(1, $2) g
       JOIN users u ON u.org_id = $1 AND u.org_user_id = 'user-' || lpad((1 + g % $3)::text, 6, '0')`,
    [orgId, orders, users],
  );
  // A KYC event names its user in data.orgUserId, as the api writes it; an order event carries the order
  // (its id in data.id, as the order record has it).
  await step(
    'events',
    `INSERT INTO events (id, org_id, entity, event_type, data, status, num_retries, created_at, updated_at)
     SELECT gen_random_uuid(), $1, CASE WHEN g % 10 < 3 THEN 'Users' ELSE 'Orders' END,
            CASE WHEN g % 10 < 3 THEN (${KYC_TYPES})[1 + (g / 10) % 7] END,
            CASE WHEN g % 10 < 3
                 THEN json_build_object('orgUserId', 'user-' || lpad((1 + g % $3)::text, 6, '0'),
                                        'eventType', (${KYC_TYPES})[1 + (g / 10) % 7])
                 ELSE json_build_object('orgUserId', 'user-' || lpad((1 + g % $3)::text, 6, '0'),
                                        'id', g::text, 'status', 'COMPLETED') END,
            CASE WHEN g % 50 = 0 THEN 'FAILED' WHEN g > $2 - 20 THEN 'PENDING' ELSE 'DELIVERED' END,
            CASE WHEN g % 50 = 0 THEN 5 ELSE 0 END,
            now() - ${span} + (g::float8 / $2) * ${span}, now() - ${span} + (g::float8 / $2) * ${span}
       FROM generate_series(1, $2) g`,
    [orgId, events, users],
  );
  await step(
    'webhook_attempts',
    `INSERT INTO webhook_attempts (event_id, org_id, url, num_retries, attempted_at, duration_ms, status_code,
                                   error_kind, response, delivered, event_updated_at)
     SELECT id, org_id, 'https://hooks.example.com/svc', num_retries, created_at + interval '150 ms', 120,
            CASE WHEN status = 'FAILED' THEN 500 ELSE 200 END, NULL,
            CASE WHEN status = 'FAILED' THEN 'upstream error' ELSE 'ok' END, status <> 'FAILED', updated_at
       FROM events WHERE org_id = $1 AND status <> 'PENDING' ORDER BY created_at`,
    [orgId],
  );
  await step(
    'kyc_reviews',
    `INSERT INTO kyc_reviews (org_id, user_id, event_type, message, reviewer, event_id, created_at)
     SELECT e.org_id, u.id, e.event_type, 'document unreadable', 'ops@example.com', e.id, e.created_at
       FROM events e JOIN users u ON u.org_id = e.org_id AND u.org_user_id = e.data->>'orgUserId'
      WHERE e.org_id = $1 AND e.entity = 'Users' AND e.event_type IN ('KYC_REJECTED', 'KYC_RFI')
      ORDER BY e.created_at`,
    [orgId],
  );
  return took;
}
