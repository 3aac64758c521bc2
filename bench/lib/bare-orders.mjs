// The reference's market orders: the statements and the arithmetic of an order's transaction written here, in
// plain JS over decimal.js and pg, and not taken from the api's sources (docs/decisions.md, "Orders: the
// checks and limits" is the shared rule book). So the reference measures the same database work (lock the
// user with the policy, read the facts, insert the order, move the position) without borrowing code that
// could hide a difference; api.bench.mjs compares both candidates' answers before it times anything
// (lib/order-equivalence.mjs).
import Decimal from 'decimal.js';

/** Room for any product of two numeric(38,8) values; every rounding below is explicit. */
const D = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 60 });
const SCALE = 8;

export const SYMBOL = /^([A-Z0-9]{2,12})_([A-Z0-9]{2,12})$/;

// The user row locked (one user's orders are checked and filled one at a time), with the policy and any
// order already placed with this clientOrderId.
const LOCK_USER = `
  SELECT u.id, u.user_status, u.kyc, u.tnc, o.policy,
         (SELECT id FROM orders WHERE org_id = $1 AND client_order_id = $3) AS existing_order_id
    FROM users u JOIN organisations o ON o.id = u.org_id
   WHERE u.org_id = $1 AND u.org_user_id = $2
     FOR UPDATE OF u`;

// After the lock: price, halt, holding; the day's total ($5) and the valuation ($6) only when a limit
// needs them. Amounts as text.
const READ_FACTS = `
  SELECT
    (SELECT price FROM prices WHERE symbol = $1) AS mark_price,
    EXISTS (SELECT 1 FROM trading_halts h
             WHERE h.symbol = $1 AND (h.starts_at IS NULL OR h.starts_at <= now())
               AND (h.ends_at IS NULL OR h.ends_at > now())) AS halted,
    (SELECT quantity FROM positions WHERE user_id = $2 AND asset = $3) AS holding,
    CASE WHEN $5::boolean THEN
      (SELECT coalesce(sum(net_executed_amount), 0) FROM orders
        WHERE user_id = $2 AND status = 'COMPLETED' AND commission_asset = $4
          AND created_at >= date_trunc('day', now(), 'UTC'))
    END AS traded_today,
    CASE WHEN $6::boolean THEN
      (SELECT json_agg(json_build_array(p.asset, p.quantity::text, pr.price::text))
         FROM positions p LEFT JOIN prices pr ON pr.symbol = p.asset || '_' || $4
        WHERE p.user_id = $2 AND p.quantity > 0)
    END AS holdings`;

const INSERT_ORDER = `
  INSERT INTO orders (org_id, user_id, org_user_id, client_order_id, symbol, side, type, amount_field,
                      quantity, quote_quantity, filled, status, price, average_price, estimated_price,
                      base_average_price, commission_rate, vat_rate, commission_amount, vat_amount,
                      net_executed_amount, total_executed_amount, commission_asset, rejection_reason)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
          $22, $23, $24)
  RETURNING id, created_at, updated_at`;

const BUY_INTO_POSITION = `
  INSERT INTO positions (user_id, asset, org_id, quantity) VALUES ($1, $2, $3, $4)
  ON CONFLICT (user_id, asset) DO UPDATE SET quantity = positions.quantity + EXCLUDED.quantity, updated_at = now()`;

const SELL_FROM_POSITION = `
  UPDATE positions SET quantity = quantity - $3, updated_at = now() WHERE user_id = $1 AND asset = $2`;

/** Stored text of an amount: 8 decimals, half up unless told. */
const text = (value, rounding = Decimal.ROUND_HALF_UP) => value.toFixed(SCALE, rounding);
const round = (value, rounding = Decimal.ROUND_HALF_UP) => value.toDecimalPlaces(SCALE, rounding);
const over = (amount, limit) => limit !== undefined && amount.gt(limit);

/** A JSON number the api takes as an amount: > 0, at most 8 decimals, within numeric(38,8). */
export function isAmount(value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  const amount = new D(String(value));
  return (
    amount.gt(0) &&
    amount.decimalPlaces() <= SCALE &&
    amount.precision(true) - amount.decimalPlaces() <= 38 - SCALE
  );
}

/**
 * Places `request` ({ orgUserId, clientOrderId, symbol, base, quote, side, amountField, amount: string })
 * for organisation `orgId` inside the open transaction of `client`. Answers { record }, or { missing }
 * when there is no such user or the clientOrderId is taken (the benchmark sends neither).
 */
export async function placeOrder(client, orgId, request) {
  const { rows: users } = await client.query(LOCK_USER, [orgId, request.orgUserId, request.clientOrderId]);
  const user = users[0];
  if (!user) return { missing: 'user' };
  if (user.existing_order_id !== null) return { missing: 'clientOrderId' };
  const { policy } = user;
  const { rows: facts } = await client.query(READ_FACTS, [
    request.symbol,
    user.id,
    request.base,
    request.quote,
    policy.totalLimit[request.quote] !== undefined,
    request.side === 'BUY' && policy.totalExposure[request.quote] !== undefined,
  ]);
  const row = facts[0];
  const price = row.mark_price === null ? null : new D(row.mark_price);
  const amount = new D(request.amount);
  const byQuantity = request.amountField === 'quantity';
  // Size: a quantity is worth quantity x price (half up); a quote amount buys what it covers (down).
  const quantity = price && (byQuantity ? amount : round(amount.div(price), Decimal.ROUND_DOWN));
  const value = price && (byQuantity ? round(amount.times(price)) : amount);
  const reason = rejection(user, policy, request, row, price && { quantity, value });

  const zero = text(new D(0));
  const order = {
    quantity: byQuantity ? text(amount) : zero,
    quoteQuantity: byQuantity ? zero : text(amount),
    filled: zero,
    status: reason === null ? 'COMPLETED' : 'REJECTED',
    price: zero,
    averagePrice: zero,
    estimatedPrice: text(price ?? new D(0)),
    baseAveragePrice: zero,
    commissionRate: text(new D(policy.commissionRate)),
    vatRate: text(new D(policy.vatRate)),
    commissionAmount: zero,
    vatAmount: zero,
    netExecutedAmount: zero,
    totalExecutedAmount: zero,
    rejectionReason: reason,
  };
  if (reason === null) {
    // Filled in full at the operator price. Commission on the net, VAT on the commission; a BUY pays
    // net + fees, a SELL receives net - fees.
    const net = round(quantity.times(price));
    const commission = round(net.times(policy.commissionRate));
    const vat = round(commission.times(policy.vatRate));
    const total = request.side === 'BUY' ? net.plus(commission).plus(vat) : net.minus(commission).minus(vat);
    Object.assign(order, {
      quantity: text(quantity),
      quoteQuantity: byQuantity ? text(net) : text(amount),
      filled: text(quantity),
      price: text(price),
      averagePrice: text(total.div(quantity)),
      baseAveragePrice: text(net.div(quantity)),
      commissionAmount: text(commission),
      vatAmount: text(vat),
      netExecutedAmount: text(net),
      totalExecutedAmount: text(total),
    });
  }
  const { rows: inserted } = await client.query(INSERT_ORDER, [
    orgId,
    user.id,
    request.orgUserId,
    request.clientOrderId,
    request.symbol,
    request.side,
    'MARKET',
    request.amountField,
    order.quantity,
    order.quoteQuantity,
    order.filled,
    order.status,
    order.price,
    order.averagePrice,
    order.estimatedPrice,
    order.baseAveragePrice,
    order.commissionRate,
    order.vatRate,
    order.commissionAmount,
    order.vatAmount,
    order.netExecutedAmount,
    order.totalExecutedAmount,
    request.quote,
    order.rejectionReason,
  ]);
  if (order.status === 'COMPLETED') {
    if (request.side === 'BUY') {
      await client.query(BUY_INTO_POSITION, [user.id, request.base, orgId, order.filled]);
    } else {
      await client.query(SELL_FROM_POSITION, [user.id, request.base, order.filled]);
    }
  }
  return { record: record(orgId, request, order, inserted[0]) };
}

/**
 * The first rule the order breaks, in the order they are checked (docs/decisions.md, "Orders: the checks and
 * limits"), or null.
 */
function rejection(user, policy, request, row, sizing) {
  if (user.user_status !== 'ACTIVE') return 'USER_NOT_ACTIVE';
  if (!user.kyc) return 'KYC_NOT_COMPLETED';
  if (!user.tnc) return 'TNC_NOT_ACCEPTED';
  if (!policy.enabledAssets.includes(request.base)) return 'ASSET_NOT_ENABLED';
  if (row.halted) return 'ASSET_DISABLED';
  if (!sizing) return 'PRICE_UNAVAILABLE';
  if (sizing.quantity.isZero()) return 'AMOUNT_TOO_SMALL';
  if (over(sizing.value, policy.quoteLimit[request.quote])) return 'QUOTE_LIMIT';
  const today = new D(row.traded_today ?? 0);
  if (over(today.plus(sizing.value), policy.totalLimit[request.quote])) return 'TOTAL_LIMIT';
  const holding = new D(row.holding ?? 0);
  if (request.side === 'SELL') return sizing.quantity.gt(holding) ? 'INSUFFICIENT_HOLDINGS' : null;
  const exposure = policy.totalExposure[request.quote];
  if (exposure !== undefined) {
    // Positions valued at operator prices; one without a price in the quote currency fails the limit.
    let worth = new D(0);
    for (const [, held, heldPrice] of row.holdings ?? []) {
      if (heldPrice === null) return 'TOTAL_EXPOSURE';
      worth = worth.plus(new D(held).times(heldPrice));
    }
    if (over(worth.plus(sizing.value), exposure)) return 'TOTAL_EXPOSURE';
  }
  if (over(holding.plus(sizing.quantity), policy.assetExposure[request.base])) return 'ASSET_EXPOSURE';
  return null;
}

/** A stored amount as a JSON number with exactly its digits (trailing zeros dropped). */
function exact(stored) {
  const trimmed = stored.replace(/\.?0+$/, '');
  return JSON.rawJSON(trimmed === '-0' ? '0' : trimmed);
}

/** The order record (docs/api-guide.md#orders-events), in its field order. */
function record(orgId, request, order, inserted) {
  return {
    id: Number(inserted.id),
    orgId,
    clientOrderId: request.clientOrderId,
    orgUserId: request.orgUserId,
    symbol: request.symbol,
    side: request.side,
    type: 'MARKET',
    quantity: exact(order.quantity),
    quoteQuantity: exact(order.quoteQuantity),
    filled: exact(order.filled),
    status: order.status,
    price: exact(order.price),
    averagePrice: exact(order.averagePrice),
    estimatedPrice: exact(order.estimatedPrice),
    baseAveragePrice: exact(order.baseAveragePrice),
    commissionRate: exact(order.commissionRate),
    vatRate: exact(order.vatRate),
    commissionAmount: exact(order.commissionAmount),
    vatAmount: exact(order.vatAmount),
    netExecutedAmount: exact(order.netExecutedAmount),
    totalExecutedAmount: exact(order.totalExecutedAmount),
    commissionAsset: request.quote,
    rejectionReason: order.rejectionReason,
    createdAt: inserted.created_at.toISOString(),
    updatedAt: inserted.updated_at.toISOString(),
  };
}
