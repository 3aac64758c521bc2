// The reference of the resting-order benchmark (bench/orders.bench.mjs): bare node:http + pg placing a LIMIT
// order that rests and cancelling it, the statements and arithmetic written here and not taken from the api.
//   POST /api/v1/orders/ (API key signature, lib/bare-api.mjs's check and claim): the body validated as
//     CreateOrderDto is for a GTC LIMIT order by quantity; then in ONE transaction: the user locked with the
//     policy, the facts read with the user's open orders, every check with what those orders reserve (a
//     BUY its quantity x limit with fees and VAT, a SELL its quantity), the pair's price locked FOR SHARE and
//     its levels FOR UPDATE (as a placement that could fill does), the order inserted PENDING, its event
//     with its NOTIFY; the record back.
//   DELETE /api/v1/orders/{id}/ (API key signature): in ONE transaction the order locked, refused unless
//     open, CANCELLED (REQUESTED), its event with its NOTIFY; the record back.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

import { EVENTS_CHANNEL } from '@svc/db';
import { splitRequestTarget } from '@svc/protocol';
import Decimal from 'decimal.js';
import pg from 'pg';

import {
  checkJsonBody,
  EVENT_INSERT,
  HttpError,
  inTransaction,
  ORG_USER_ID,
  signedCheck,
} from './bare-api.mjs';
import { isAmount, SYMBOL } from './bare-orders.mjs';

const D = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 60 });
const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/i;
const FIELDS = new Set([
  'orgUserId',
  'clientOrderId',
  'symbol',
  'side',
  'type',
  'quantity',
  'limitPrice',
  'timeInForce',
]);
const CANCEL = /^DELETE \/api\/v1\/orders\/([0-9]{1,15})$/;

const LOCK_USER = `
  SELECT u.id, u.user_status, u.kyc, u.tnc, o.policy,
         (SELECT id FROM orders WHERE org_id = $1 AND client_order_id = $3) AS existing_order_id
    FROM users u JOIN organisations o ON o.id = u.org_id
   WHERE u.org_id = $1 AND u.org_user_id = $2
     FOR UPDATE OF u`;

const READ_FACTS = `
  SELECT (SELECT price FROM prices WHERE symbol = $1) AS mark_price,
         EXISTS (SELECT 1 FROM trading_halts h
                  WHERE h.symbol = $1 AND (h.starts_at IS NULL OR h.starts_at <= now())
                    AND (h.ends_at IS NULL OR h.ends_at > now())) AS halted,
         (SELECT quantity FROM positions WHERE user_id = $2 AND asset = $3) AS holding,
         (SELECT coalesce(sum(net_executed_amount), 0) FROM orders
           WHERE user_id = $2 AND filled > 0 AND commission_asset = $4
             AND created_at >= date_trunc('day', now(), 'UTC')) AS traded_today,
         (SELECT json_agg(json_build_array(p.asset, p.quantity::text, pr.price::text))
            FROM positions p LEFT JOIN prices pr ON pr.symbol = p.asset || '_' || $4
           WHERE p.user_id = $2 AND p.quantity > 0) AS holdings,
         (SELECT json_agg(json_build_array(side, symbol, (quantity - filled)::text,
                                           coalesce(limit_price, stop_price)::text, commission_rate::text,
                                           vat_rate::text))
            FROM orders WHERE user_id = $2 AND status IN ('PENDING', 'PARTIALLY_FILLED')) AS open_orders`;

const LOCK_PRICE = 'SELECT price::text FROM prices WHERE symbol = $1 FOR SHARE';
const LOCK_LEVELS =
  'SELECT side, price::text, size::text FROM price_levels WHERE symbol = $1 ORDER BY side, price FOR UPDATE';

const INSERT_ORDER = `
  INSERT INTO orders (org_id, user_id, org_user_id, client_order_id, symbol, side, type, amount_field,
                      quantity, quote_quantity, filled, status, price, average_price, estimated_price,
                      base_average_price, commission_rate, vat_rate, commission_amount, vat_amount,
                      net_executed_amount, total_executed_amount, commission_asset, time_in_force, limit_price)
  VALUES ($1, $2, $3, $4, $5, $6, 'LIMIT', 'quantity', $7, 0, 0, 'PENDING', 0, 0, $8, 0, $9, $10, 0, 0, 0, 0,
          $11, 'GTC', $12)
  RETURNING *`;

const LOCK_ORDER = 'SELECT status FROM orders WHERE org_id = $1 AND id = $2 FOR UPDATE';
const CANCEL_ORDER = `
  UPDATE orders SET status = 'CANCELLED', cancel_reason = 'REQUESTED', updated_at = now() WHERE id = $1 RETURNING *`;

const round = (value) => value.toDecimalPlaces(8, Decimal.ROUND_HALF_UP);
const over = (amount, limit) => limit !== undefined && amount.gt(limit);

/** What a BUY of `quantity` at `price` holds: its net with commission and VAT on it. */
function buyHold(quantity, price, commissionRate, vatRate) {
  const net = round(quantity.times(price));
  const commission = round(net.times(commissionRate));
  return net.plus(commission).plus(round(commission.times(vatRate)));
}

/** What the open orders `rows` reserve for an order on base_quote. */
function reserved(rows, base, quote) {
  const held = { quote: new D(0), buyQuote: new D(0), buyBase: new D(0), sellBase: new D(0) };
  for (const [side, symbol, remaining, price, commissionRate, vatRate] of rows ?? []) {
    const [, heldBase, heldQuote] = SYMBOL.exec(symbol);
    const left = new D(remaining);
    if (side === 'BUY') {
      const amount = heldQuote === quote ? buyHold(left, new D(price), commissionRate, vatRate) : new D(0);
      held.quote = held.quote.plus(amount);
      held.buyQuote = held.buyQuote.plus(amount);
      if (heldBase === base) held.buyBase = held.buyBase.plus(left);
    } else {
      if (heldQuote === quote) held.quote = held.quote.plus(round(left.times(price)));
      if (heldBase === base) held.sellBase = held.sellBase.plus(left);
    }
  }
  return held;
}

/** The first check the order fails (docs/decisions.md, "Orders: the checks and limits"), or null. */
function rejection(user, request, facts, quantity, value) {
  const { policy } = user;
  if (user.user_status !== 'ACTIVE') return 'USER_NOT_ACTIVE';
  if (!user.kyc) return 'KYC_NOT_COMPLETED';
  if (!user.tnc) return 'TNC_NOT_ACCEPTED';
  if (!policy.enabledAssets.includes(request.base)) return 'ASSET_NOT_ENABLED';
  if (facts.halted) return 'ASSET_DISABLED';
  if (facts.mark_price === null) return 'PRICE_UNAVAILABLE';
  const held = reserved(facts.open_orders, request.base, request.quote);
  if (over(value, policy.quoteLimit[request.quote])) return 'QUOTE_LIMIT';
  const day = new D(facts.traded_today).plus(held.quote).plus(value);
  if (over(day, policy.totalLimit[request.quote])) return 'TOTAL_LIMIT';
  const holding = new D(facts.holding ?? 0);
  if (request.side === 'SELL')
    return quantity.gt(holding.minus(held.sellBase)) ? 'INSUFFICIENT_HOLDINGS' : null;
  const exposure = policy.totalExposure[request.quote];
  if (exposure !== undefined) {
    let worth = new D(0);
    for (const [, amount, price] of facts.holdings ?? []) {
      if (price === null) return 'TOTAL_EXPOSURE';
      worth = worth.plus(new D(amount).times(price));
    }
    if (over(worth.plus(held.buyQuote).plus(value), exposure)) return 'TOTAL_EXPOSURE';
  }
  if (over(holding.plus(held.buyBase).plus(quantity), policy.assetExposure[request.base]))
    return 'ASSET_EXPOSURE';
  return null;
}

/** CreateOrderDto's validation of what this reference takes: a GTC LIMIT order by quantity. */
function restingInput(body) {
  const input = JSON.parse(body);
  const problems = Object.keys(input)
    .filter((field) => !FIELDS.has(field))
    .map((field) => `property ${field} should not exist`);
  if (typeof input.orgUserId !== 'string' || !ORG_USER_ID.test(input.orgUserId)) problems.push('orgUserId');
  if (typeof input.clientOrderId !== 'string' || !UUID.test(input.clientOrderId))
    problems.push('clientOrderId');
  if (typeof input.symbol !== 'string' || !SYMBOL.test(input.symbol)) problems.push('symbol');
  if (input.side !== 'BUY' && input.side !== 'SELL') problems.push('side');
  if (input.type !== 'LIMIT') problems.push('type must be LIMIT');
  if (!isAmount(input.quantity)) problems.push('quantity must be an amount');
  if (!isAmount(input.limitPrice)) problems.push('limitPrice must be an amount');
  if (input.timeInForce !== undefined && input.timeInForce !== 'GTC')
    problems.push('timeInForce must be GTC');
  if (problems.length > 0) throw new HttpError(400, `Bad Request: ${problems.join('; ')}`);
  const [, base, quote] = SYMBOL.exec(input.symbol);
  return { ...input, clientOrderId: input.clientOrderId.toLowerCase(), base, quote };
}

async function place(client, orgId, request) {
  const { rows: users } = await client.query(LOCK_USER, [orgId, request.orgUserId, request.clientOrderId]);
  const user = users[0];
  if (!user)
    throw new HttpError(404, `Not Found: no user with orgUserId ${JSON.stringify(request.orgUserId)}`);
  if (user.existing_order_id !== null) throw new HttpError(409, 'Conflict: clientOrderId already used');
  const {
    rows: [facts],
  } = await client.query(READ_FACTS, [request.symbol, user.id, request.base, request.quote]);
  const { commissionRate, vatRate } = user.policy;
  const quantity = new D(String(request.quantity));
  const limit = new D(String(request.limitPrice));
  const value =
    request.side === 'BUY' ? buyHold(quantity, limit, commissionRate, vatRate) : round(quantity.times(limit));
  const reason = rejection(user, request, facts, quantity, value);
  // The benchmark's orders pass every check; a refusal would be another scenario.
  if (reason !== null) throw new HttpError(409, `Conflict: the order would be REJECTED (${reason})`);
  const [{ rows: prices }, { rows: levels }] = [
    await client.query(LOCK_PRICE, [request.symbol]),
    await client.query(LOCK_LEVELS, [request.symbol]),
  ];
  const book = levels.filter((level) => level.side === (request.side === 'BUY' ? 'ASK' : 'BID'));
  const best = book.length > 0 ? new D(book[0].price) : new D(prices[0].price);
  if (request.side === 'BUY' ? best.lte(limit) : best.gte(limit)) {
    throw new HttpError(409, 'Conflict: the benchmark places orders that rest');
  }
  const text = (value) => value.toFixed(8);
  const {
    rows: [row],
  } = await client.query(INSERT_ORDER, [
    orgId,
    user.id,
    request.orgUserId,
    request.clientOrderId,
    request.symbol,
    request.side,
    text(quantity),
    facts.mark_price,
    text(new D(commissionRate)),
    text(new D(vatRate)),
    request.quote,
    text(limit),
  ]);
  return announce(client, orgId, row);
}

async function cancel(client, orgId, id) {
  const { rows } = await client.query(LOCK_ORDER, [orgId, id]);
  if (!rows[0]) throw new HttpError(404, `Not Found: no order ${JSON.stringify(id)}`);
  if (rows[0].status !== 'PENDING' && rows[0].status !== 'PARTIALLY_FILLED') {
    throw new HttpError(409, `Conflict: order ${id} is ${rows[0].status}`);
  }
  const {
    rows: [row],
  } = await client.query(CANCEL_ORDER, [id]);
  return announce(client, orgId, row);
}

/** The Orders event with its NOTIFY; answers the record. */
async function announce(client, orgId, row) {
  const record = orderRecord(row);
  await client.query(EVENT_INSERT, [
    randomUUID(),
    orgId,
    'Orders',
    null,
    JSON.stringify(record),
    EVENTS_CHANNEL,
  ]);
  return record;
}

/** A stored amount as a JSON number with exactly its digits. */
function exact(stored) {
  if (stored === null) return null;
  const trimmed = stored.includes('.') ? stored.replace(/\.?0+$/, '') : stored;
  return JSON.rawJSON(trimmed === '-0' ? '0' : trimmed);
}

/** An orders row as the record of a LIMIT order, in its field order. */
function orderRecord(row) {
  return {
    id: Number(row.id),
    orgId: row.org_id,
    clientOrderId: row.client_order_id,
    orgUserId: row.org_user_id,
    symbol: row.symbol,
    side: row.side,
    type: row.type,
    timeInForce: row.time_in_force,
    limitPrice: exact(row.limit_price),
    stopPrice: exact(row.stop_price),
    expireAt: row.expire_at?.toISOString() ?? null,
    quantity: exact(row.quantity),
    quoteQuantity: exact(row.quote_quantity),
    filled: exact(row.filled),
    status: row.status,
    price: exact(row.price),
    averagePrice: exact(row.average_price),
    estimatedPrice: exact(row.estimated_price),
    baseAveragePrice: exact(row.base_average_price),
    commissionRate: exact(row.commission_rate),
    vatRate: exact(row.vat_rate),
    commissionAmount: exact(row.commission_amount),
    vatAmount: exact(row.vat_amount),
    netExecutedAmount: exact(row.net_executed_amount),
    totalExecutedAmount: exact(row.total_executed_amount),
    commissionAsset: row.commission_asset,
    rejectionReason: row.rejection_reason,
    cancelReason: row.cancel_reason,
    replaces: row.replaces === null ? null : Number(row.replaces),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Starts the reference on `url` (migrated by the caller); resolves to { server, close }. */
export async function startBareResting({ url, config, poolSize = 10 }) {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, application_name: 'bench-bare-resting' });
  const signedCaller = signedCheck(pool, config);

  async function handle(request, body) {
    const route = `${request.method} ${splitRequestTarget(request.url).path.replace(/\/$/, '')}`;
    if (route === 'POST /api/v1/orders') {
      const who = await signedCaller(request, body);
      checkJsonBody(body);
      const input = restingInput(body);
      return inTransaction(pool, (client) => place(client, who.orgId, input));
    }
    const cancelled = CANCEL.exec(route);
    if (cancelled) {
      const who = await signedCaller(request, body);
      return inTransaction(pool, (client) => cancel(client, who.orgId, cancelled[1]));
    }
    throw new HttpError(404, `Not Found: no route ${route}`);
  }

  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const answer = (status, text) => {
        response.writeHead(status, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(text),
        });
        response.end(text);
      };
      handle(request, Buffer.concat(chunks).toString('utf8')).then(
        (data) => answer(200, JSON.stringify({ code: 200, data, error: null })),
        (error) =>
          error instanceof HttpError
            ? answer(error.status, JSON.stringify({ code: error.status, data: null, error: error.message }))
            : answer(500, JSON.stringify({ code: 500, data: null, error: 'Internal Server Error' })),
      );
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    },
  };
}
