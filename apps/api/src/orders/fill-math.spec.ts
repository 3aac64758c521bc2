// The money of fills on its own, without PostgreSQL (docs/decisions.md, "Orders: fees over several fills"):
// examples worked by hand, then properties over generated fills (fast-check): the order's amounts are the
// sums of its fills' amounts, fees are never negative, and however an order is split its fees are those of
// one fill of the same net, so splitting never creates value.
import fc from 'fast-check';

import { Dec } from '../common/decimal.js';
import {
  addFill,
  buyReservation,
  costFills,
  executedAmounts,
  feesOn,
  fillCost,
  NO_FILLS,
  type Rates,
  type Totals,
} from './fill-math.js';

const d = (value: string | number) => new Dec(value);
const RATES: Rates = { commissionRate: '0.0015', vatRate: '0.21' };

describe('fillCost', () => {
  it('one fill: net rounded half up to 8 decimals, commission on it, VAT on the commission', () => {
    const cost = fillCost('BUY', NO_FILLS, { price: d(50000), quantity: d(0.1) }, RATES);
    expect([cost.net, cost.commission, cost.vat, cost.total].map((v) => v.toFixed())).toEqual([
      '5000',
      '7.5',
      '1.575',
      '5009.075',
    ]);
    const sell = fillCost('SELL', NO_FILLS, { price: d(50000), quantity: d(0.1) }, RATES);
    expect(sell.total.toFixed()).toBe('4990.925');
  });

  it('fees of a later fill are the increase of the fees on the running net', () => {
    // Rounded fill by fill, three fills of net 1 would pay round(0.000000015) = 0.00000002 each, 0.00000006
    // in all; on the running net they pay 0.00000005 in all, as one fill of net 3 does.
    const rates = { commissionRate: '0.000000015', vatRate: '0.5' };
    const { costs, totals } = costFills(
      'BUY',
      NO_FILLS,
      [
        { price: d(1), quantity: d(1) },
        { price: d(1), quantity: d(1) },
        { price: d(1), quantity: d(1) },
      ],
      rates,
    );
    // Running net 1, 2, 3: commission round(0.000000015) = 0.00000002, round(0.00000003) = 0.00000003,
    // round(0.000000045) = 0.00000005.
    expect(costs.map((c) => c.commission.toFixed())).toEqual(['0.00000002', '0.00000001', '0.00000002']);
    expect(totals.commission.toFixed()).toBe(feesOn(d(3), rates).commission.toFixed());
  });

  it('executedAmounts: averages per unit, the last fill price, zeros before the first fill', () => {
    const { totals } = costFills(
      'BUY',
      NO_FILLS,
      [
        { price: d(2500), quantity: d(1) },
        { price: d(2510), quantity: d(0.5) },
      ],
      RATES,
    );
    expect(executedAmounts(totals, d(2510))).toMatchObject({
      filled: '1.50000000',
      price: '2510.00000000',
      netExecutedAmount: '3755.00000000',
      baseAveragePrice: '2503.33333333',
    });
    expect(executedAmounts(NO_FILLS, null)).toMatchObject({
      filled: '0.00000000',
      averagePrice: '0.00000000',
    });
  });

  it('buyReservation is what one fill of the whole would cost', () => {
    expect(buyReservation(d(0.1), d(49900), RATES).toFixed()).toBe('4999.05685');
  });
});

// ---- properties

const UNIT = d('0.00000001');
const units = (max: number) => fc.integer({ min: 1, max }).map((n) => UNIT.times(n));
const fill = fc.record({
  quantity: units(10_000_000_000), // up to 100 units of base
  price: fc.integer({ min: 1, max: 10_000_000 }).map((cents) => d(cents).div(100)),
});
const rates = fc.record({
  commissionRate: fc.integer({ min: 0, max: 100_000 }).map((n) => UNIT.times(n * 1000).toFixed()),
  vatRate: fc.integer({ min: 0, max: 50 }).map((n) => d(n).div(100).toFixed()),
});
const sideArb = fc.constantFrom('BUY' as const, 'SELL' as const);

const sum = (values: Dec[]) => values.reduce((total, v) => total.plus(v), d(0));

describe('fill properties', () => {
  it("the order's amounts are the sums of its fills' amounts, exactly", () => {
    fc.assert(
      fc.property(sideArb, fc.array(fill, { minLength: 1, maxLength: 12 }), rates, (side, fills, r) => {
        const { costs, totals } = costFills(side, NO_FILLS, fills, r);
        expect(totals.filled.eq(sum(costs.map((c) => c.quantity)))).toBe(true);
        expect(totals.net.eq(sum(costs.map((c) => c.net)))).toBe(true);
        expect(totals.commission.eq(sum(costs.map((c) => c.commission)))).toBe(true);
        expect(totals.vat.eq(sum(costs.map((c) => c.vat)))).toBe(true);
        expect(totals.total.eq(sum(costs.map((c) => c.total)))).toBe(true);
      }),
    );
  });

  it('fees are never negative, and each amount has at most 8 decimals', () => {
    fc.assert(
      fc.property(sideArb, fc.array(fill, { minLength: 1, maxLength: 12 }), rates, (side, fills, r) => {
        for (const cost of costFills(side, NO_FILLS, fills, r).costs) {
          expect(cost.commission.gte(0)).toBe(true);
          expect(cost.vat.gte(0)).toBe(true);
          for (const v of [cost.net, cost.commission, cost.vat, cost.total]) {
            expect(v.decimalPlaces()).toBeLessThanOrEqual(8);
          }
        }
      }),
    );
  });

  it('splitting never creates value: the fees are those of one fill of the same net, whatever the split', () => {
    fc.assert(
      fc.property(sideArb, fc.array(fill, { minLength: 1, maxLength: 12 }), rates, (side, fills, r) => {
        const { totals } = costFills(side, NO_FILLS, fills, r);
        const one = feesOn(totals.net, r);
        expect(totals.commission.eq(one.commission)).toBe(true);
        expect(totals.vat.eq(one.vat)).toBe(true);
        const fees = totals.commission.plus(totals.vat);
        expect(totals.total.eq(side === 'BUY' ? totals.net.plus(fees) : totals.net.minus(fees))).toBe(true);
      }),
    );
  });

  it('accumulating fill by fill equals costing them all at once', () => {
    fc.assert(
      fc.property(sideArb, fc.array(fill, { minLength: 2, maxLength: 8 }), rates, (side, fills, r) => {
        let totals: Totals = NO_FILLS;
        for (const f of fills) totals = addFill(totals, fillCost(side, totals, f, r));
        const all = costFills(side, NO_FILLS, fills, r).totals;
        expect(totals.total.eq(all.total)).toBe(true);
        expect(totals.commission.eq(all.commission)).toBe(true);
      }),
    );
  });
});
