// The statements of an order's transaction (orders.service.ts). The benchmark's bare reference runs these
// same statements (bench/lib/bare-api.mjs), so the two do the same database work.
import type { Order, OrgPolicy } from '@svc/db';
import type { UserStatus } from '@svc/protocol';

import { Dec } from '../common/decimal.js';
import { holdingsValue, type OrderRequest, type TradingFacts } from './order-math.js';

// The user row is locked, so one user's orders are checked and filled one at a time and never breach a
// limit together; the organisation's policy is read in the same statement. The existing order of this
// clientOrderId is looked up too, so a retry costs no extra round trip.
/** A row of LOCK_USER. */
export interface LockedUser {
  readonly id: string;
  readonly user_status: UserStatus;
  readonly kyc: boolean;
  readonly tnc: boolean;
  readonly policy: OrgPolicy;
  /** The order already placed with this clientOrderId, if any. */
  readonly existing_order_id: string | null;
}

/** The row of READ_FACTS. */
export interface FactsRow {
  readonly mark_price: string | null;
  readonly halted: boolean;
  readonly holding: string | null;
  readonly traded_today: string | null;
  /** [asset, quantity, price or null] per position held, as text. */
  readonly holdings: [string, string, string | null][] | null;
}

export const LOCK_USER = `
  SELECT u.id, u.user_status, u.kyc, u.tnc, o.policy,
         (SELECT id FROM orders WHERE org_id = $1 AND client_order_id = $3) AS existing_order_id
    FROM users u JOIN organisations o ON o.id = u.org_id
   WHERE u.org_id = $1 AND u.org_user_id = $2
     FOR UPDATE OF u`;

// Read after the lock is held. The day's total and the valuation are computed only when a limit needs
// them ($5, $6). Amounts come back as text: json numbers would pass through floats.
export const READ_FACTS = `
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

export /** The values of READ_FACTS: the day's total and the valuation only when a limit needs them. */
function readFactsValues(user: LockedUser, request: OrderRequest): unknown[] {
  const { policy } = user;
  return [
    request.symbol,
    user.id,
    request.base,
    request.quote,
    policy.totalLimit[request.quote] !== undefined,
    request.side === 'BUY' && policy.totalExposure[request.quote] !== undefined,
  ];
}

/** What the checks look at, from the locked user and the facts row. */
export function tradingFacts(user: LockedUser, row: FactsRow): TradingFacts {
  return {
    userStatus: user.user_status,
    kyc: user.kyc,
    tnc: user.tnc,
    policy: user.policy,
    halted: row.halted,
    markPrice: row.mark_price === null ? null : new Dec(row.mark_price),
    holding: new Dec(row.holding ?? 0),
    tradedToday: new Dec(row.traded_today ?? 0),
    holdingsValue: holdingsValue(row.holdings ?? []),
  };
}

export const INSERT_ORDER = `
  INSERT INTO orders (org_id, user_id, org_user_id, client_order_id, symbol, side, type, amount_field,
                      quantity, quote_quantity, filled, status, price, average_price, estimated_price,
                      base_average_price, commission_rate, vat_rate, commission_amount, vat_amount,
                      net_executed_amount, total_executed_amount, commission_asset, rejection_reason)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
          $22, $23, $24)
  RETURNING id, created_at, updated_at`;

export const ADD_TO_POSITION = `
  INSERT INTO positions (user_id, asset, org_id, quantity) VALUES ($1, $2, $3, $4)
  ON CONFLICT (user_id, asset) DO UPDATE SET quantity = positions.quantity + EXCLUDED.quantity, updated_at = now()`;

export const TAKE_FROM_POSITION = `
  UPDATE positions SET quantity = quantity - $3, updated_at = now() WHERE user_id = $1 AND asset = $2`;

/** The values of INSERT_ORDER for `order`, in its column order. */
export function insertOrderValues(order: Omit<Order, 'id' | 'createdAt' | 'updatedAt'>): unknown[] {
  return [
    order.orgId,
    order.userId,
    order.orgUserId,
    order.clientOrderId,
    order.symbol,
    order.side,
    order.type,
    order.amountField,
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
    order.commissionAsset,
    order.rejectionReason,
  ];
}
