// The sweep's decision about one resting order, without PostgreSQL: the checks see the user's reservations
// less the order's own, a failed check cancels the rest naming it, a fill takes from the book and releases
// what it reserved, so the next order of the same user in the batch sees it.
import { Order, type OrgPolicy } from '@svc/db';

import { Dec } from '../common/decimal.js';
import { bookOf } from './matching.js';
import type { PairMarket } from './execution.repository.js';
import { buyReservation } from './fill-math.js';
import { decideResting, type UserFacts } from './resting.js';

const RATES = { commissionRate: '0.0015', vatRate: '0.21' };
const POLICY: OrgPolicy = {
  enabledAssets: ['BTC'],
  quoteLimit: {},
  totalLimit: {},
  totalExposure: {},
  assetExposure: {},
  ...RATES,
};

function order(id: string, fields: Partial<Order> = {}): Order {
  return Object.assign(new Order(), {
    id,
    orgId: 1,
    userId: '7',
    orgUserId: 'u-7',
    clientOrderId: '6f1c2b7e-3d4a-4c5b-9e8f-0a1b2c3d4001',
    symbol: 'BTC_EUR',
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    limitPrice: '49000.00000000',
    stopPrice: null,
    triggeredAt: null,
    expireAt: null,
    amountField: 'quantity',
    quantity: '1.00000000',
    quoteQuantity: '0',
    filled: '0',
    status: 'PENDING',
    price: '0',
    averagePrice: '0',
    estimatedPrice: '50000',
    baseAveragePrice: '0',
    commissionRate: RATES.commissionRate,
    vatRate: RATES.vatRate,
    commissionAmount: '0',
    vatAmount: '0',
    netExecutedAmount: '0',
    totalExecutedAmount: '0',
    commissionAsset: 'EUR',
    rejectionReason: null,
    cancelReason: null,
    replaces: null,
    ...fields,
  });
}

/** A user with two open BUYs of 1 BTC at 49000, both read into the reservations by quote and by base. */
function user(policy: Partial<OrgPolicy> = {}): UserFacts {
  const held = buyReservation(new Dec(1), new Dec(49000), RATES).times(2);
  return {
    userStatus: 'ACTIVE',
    kyc: true,
    tnc: true,
    policy: { ...POLICY, ...policy },
    positions: new Map(),
    traded: new Map(),
    byQuote: new Map([['EUR', { all: held, buy: held }]]),
    byBase: new Map([['BTC', { buy: new Dec(2), sell: new Dec(0) }]]),
  };
}

const market = (asks: { price: number; size: number }[]): PairMarket => ({
  book: bookOf(
    asks.map(({ price, size }) => ({ side: 'ASK' as const, price: new Dec(price), size: new Dec(size) })),
    new Dec(48000),
  ),
  last: new Dec(48000),
  hasLevels: true,
});

describe('decideResting', () => {
  it('checks the order against the reservations of the others only: its own does not count twice', () => {
    // Two orders of 49073.5035 each with fees; a limit of 2 x that holds each one, with the other counted.
    const limit = buyReservation(new Dec(1), new Dec(49000), RATES).times(2).toFixed();
    const facts = user({ totalLimit: { EUR: limit } });
    const decision = decideResting(order('1'), facts, market([{ price: 48000, size: 5 }]), new Map());
    expect(decision.kind).toBe('fill');
  });

  it('a check failing at a fill cancels the rest with the check as cancelReason, and releases its hold', () => {
    const facts = user({ assetExposure: { BTC: '1.5' } });
    const first = decideResting(order('1'), facts, market([{ price: 48000, size: 5 }]), new Map());
    // Holding 0, the other BUY 1, this one 1: 2 > 1.5.
    expect(first).toMatchObject({
      kind: 'cancel',
      order: { status: 'CANCELLED', cancelReason: 'ASSET_EXPOSURE' },
    });
    expect(facts.byBase.get('BTC')?.buy.toFixed()).toBe('1');
    // The cancelled order no longer holds: the second one now passes.
    const second = decideResting(order('2'), facts, market([{ price: 48000, size: 5 }]), new Map());
    expect(second).toMatchObject({ kind: 'fill', order: { status: 'COMPLETED', filled: '1.00000000' } });
    expect(facts.positions.get('BTC')?.toFixed()).toBe('1');
    expect(facts.byBase.get('BTC')?.buy.toFixed()).toBe('0');
  });

  it('a partial fill moves the position and releases the reservation of what filled only', () => {
    const facts = user();
    const decision = decideResting(order('1'), facts, market([{ price: 48000, size: 0.25 }]), new Map());
    expect(decision).toMatchObject({
      kind: 'fill',
      order: { status: 'PARTIALLY_FILLED', filled: '0.25000000', price: '48000.00000000' },
    });
    const rest = buyReservation(new Dec(0.75), new Dec(49000), RATES);
    const other = buyReservation(new Dec(1), new Dec(49000), RATES);
    expect(facts.byQuote.get('EUR')?.all.eq(rest.plus(other))).toBe(true);
    expect(facts.byBase.get('BTC')?.buy.toFixed()).toBe('1.75');
    expect(facts.traded.get('EUR')?.toFixed()).toBe('12000');
  });

  it('nothing within the limit: no change', () => {
    const decision = decideResting(
      order('1'),
      user(),
      market([{ price: 49000.00000001, size: 1 }]),
      new Map(),
    );
    expect(decision).toEqual({ kind: 'none' });
  });
});
