// The money arithmetic of orders on its own, without PostgreSQL: examples worked by hand, then properties
// over generated amounts (fast-check) for what must hold for every order (docs/decisions.md, "Testing:
// money"): fees add up, rounding never creates value, a quote amount is never overspent, and the checks
// answer the first rule broken, with every limit holding at its value and failing one unit over it.
import type { OrgPolicy } from '@svc/db';
import type { OrderRejectionReason, OrderSide } from '@svc/protocol';
import Decimal from 'decimal.js';
import fc from 'fast-check';

import { Dec } from '../common/decimal.js';
import {
  failedCheck,
  fillAmounts,
  holdingsValue,
  newOrder,
  type OrderRequest,
  type Rates,
  sizeOrder,
  type Sizing,
  type TradingFacts,
  unfilledAmounts,
} from './order-math.js';

/** The smallest amount there is: one unit of the 8th decimal. */
const UNIT = new Dec('0.00000001');
/** Half a unit: the most a half-up rounding to 8 decimals moves a value. */
const HALF_UNIT = UNIT.div(2);
const EIGHT_DECIMALS = /^-?\d+\.\d{8}$/;

function order(
  side: OrderSide,
  amountField: 'quantity' | 'quoteQuantity',
  amount: Decimal.Value,
): OrderRequest {
  return {
    orgUserId: 'user-1',
    clientOrderId: '6f1c2b7e-3d4a-4c5b-9e8f-0a1b2c3d4001',
    symbol: 'BTC_EUR',
    base: 'BTC',
    quote: 'EUR',
    side,
    amountField,
    amount: new Dec(amount),
  };
}

const POLICY: OrgPolicy = {
  enabledAssets: ['BTC'],
  quoteLimit: {},
  totalLimit: {},
  totalExposure: {},
  assetExposure: {},
  commissionRate: '0.0015',
  vatRate: '0.21',
};

function facts(overrides: Partial<TradingFacts> = {}): TradingFacts {
  return {
    userStatus: 'ACTIVE',
    kyc: true,
    tnc: true,
    policy: POLICY,
    halted: false,
    markPrice: new Dec(50000),
    holding: new Dec(0),
    tradedToday: new Dec(0),
    holdingsValue: new Dec(0),
    ...overrides,
  };
}

// Generators: amounts as whole units of the 8th decimal, so every value is one the database can hold.
const units = (min: bigint, max: bigint) =>
  fc.bigInt({ min, max }).map((n) => new Dec(n.toString()).times(UNIT));
/** Quantities and quote amounts from 0.00000001 to 100,000,000. */
const anAmount = units(1n, 10n ** 16n);
/** Prices from 0.00000001 to 10,000,000. */
const aPrice = units(1n, 10n ** 15n);
/** Rates from 0 to 1, 8 decimals, as the policy stores them (text). */
const aRate = units(0n, 10n ** 8n).map((rate) => rate.toString());
const aSide = fc.constantFrom<OrderSide>('BUY', 'SELL');
const anAmountField = fc.constantFrom<'quantity' | 'quoteQuantity'>('quantity', 'quoteQuantity');

const dec = (text: string) => new Dec(text);

describe('fillAmounts', () => {
  it('charges commission on the net and VAT on the commission; a BUY pays them, a SELL has them taken', () => {
    const rates = { commissionRate: '0.0015', vatRate: '0.21' };
    const buy = fillAmounts(order('BUY', 'quantity', '0.00123456'), dec('0.00123456'), dec('50000'), rates);
    expect(buy).toEqual({
      quantity: '0.00123456',
      quoteQuantity: '61.72800000',
      filled: '0.00123456',
      price: '50000.00000000',
      averagePrice: '50090.75000000',
      baseAveragePrice: '50000.00000000',
      commissionAmount: '0.09259200',
      vatAmount: '0.01944432',
      netExecutedAmount: '61.72800000',
      totalExecutedAmount: '61.84003632',
    });
    const sell = fillAmounts(order('SELL', 'quantity', '0.00123456'), dec('0.00123456'), dec('50000'), rates);
    expect(sell.totalExecutedAmount).toBe('61.61596368');
    expect(sell.averagePrice).toBe('49909.25000000');
  });

  it('rounds each amount half up to 8 decimals, in turn', () => {
    // net 0.33333333 x 2500.5 = 833.499991665 -> 833.49999167; commission 1.250249987505 -> 1.25024999;
    // VAT 0.2625524979 -> 0.26255250.
    const amounts = fillAmounts(
      order('BUY', 'quantity', '0.33333333'),
      dec('0.33333333'),
      dec('2500.5'),
      POLICY,
    );
    expect([amounts.netExecutedAmount, amounts.commissionAmount, amounts.vatAmount]).toEqual([
      '833.49999167',
      '1.25024999',
      '0.26255250',
    ]);
    expect(amounts.totalExecutedAmount).toBe('835.01279416');
  });

  it('keeps the quote amount sent as quoteQuantity, and the net amount for a quantity order', () => {
    const byQuote = order('BUY', 'quoteQuantity', '25.5');
    const { quantity } = sizeOrder(byQuote, dec('2500.5'));
    expect(quantity.toFixed()).toBe('0.01019796');
    const amounts = fillAmounts(byQuote, quantity, dec('2500.5'), POLICY);
    expect(amounts.quoteQuantity).toBe('25.50000000');
    expect(amounts.netExecutedAmount).toBe('25.49999898');
  });

  it('with zero rates charges nothing and the total is the net', () => {
    const amounts = fillAmounts(order('SELL', 'quantity', '3'), dec('3'), dec('0.1'), {
      commissionRate: '0',
      vatRate: '0',
    });
    expect([amounts.commissionAmount, amounts.vatAmount]).toEqual(['0.00000000', '0.00000000']);
    expect(amounts.totalExecutedAmount).toBe(amounts.netExecutedAmount);
  });

  it('property: net + commission + VAT = total on a BUY, net - commission - VAT on a SELL, exactly', () => {
    fc.assert(
      fc.property(aSide, anAmount, aPrice, aRate, aRate, (side, quantity, price, commissionRate, vatRate) => {
        const amounts = fillAmounts(order(side, 'quantity', quantity), quantity, price, {
          commissionRate,
          vatRate,
        });
        const net = dec(amounts.netExecutedAmount);
        const fees = dec(amounts.commissionAmount).plus(amounts.vatAmount);
        const total = side === 'BUY' ? net.plus(fees) : net.minus(fees);
        expect(amounts.totalExecutedAmount).toBe(total.toFixed(8));
      }),
    );
  });

  it('property: every amount is written with exactly 8 decimals', () => {
    fc.assert(
      fc.property(
        aSide,
        anAmountField,
        anAmount,
        aPrice,
        aRate,
        aRate,
        (side, field, amount, price, c, v) => {
          const request = order(side, field, amount);
          const { quantity } = sizeOrder(request, price);
          fc.pre(!quantity.isZero());
          const amounts = fillAmounts(request, quantity, price, { commissionRate: c, vatRate: v });
          for (const text of Object.values(amounts)) expect(text).toMatch(EIGHT_DECIMALS);
          for (const text of Object.values(unfilledAmounts(request))) expect(text).toMatch(EIGHT_DECIMALS);
        },
      ),
    );
  });

  it('property: rounding never creates value: net, fees and per-unit prices are within half a unit', () => {
    fc.assert(
      fc.property(aSide, anAmount, aPrice, aRate, aRate, (side, quantity, price, commissionRate, vatRate) => {
        const amounts = fillAmounts(order(side, 'quantity', quantity), quantity, price, {
          commissionRate,
          vatRate,
        });
        const net = dec(amounts.netExecutedAmount);
        const commission = dec(amounts.commissionAmount);
        const vat = dec(amounts.vatAmount);
        expect(net.minus(quantity.times(price)).abs().lte(HALF_UNIT)).toBe(true);
        // The fees are never more than the rates allow on what was charged, beyond half a unit.
        expect(commission.minus(net.times(commissionRate)).abs().lte(HALF_UNIT)).toBe(true);
        expect(vat.minus(commission.times(vatRate)).abs().lte(HALF_UNIT)).toBe(true);
        expect(commission.gte(0) && vat.gte(0)).toBe(true);
        const total = dec(amounts.totalExecutedAmount);
        expect(total.div(quantity).minus(amounts.averagePrice).abs().lte(HALF_UNIT)).toBe(true);
        expect(net.div(quantity).minus(amounts.baseAveragePrice).abs().lte(HALF_UNIT)).toBe(true);
      }),
    );
  });
});

describe('sizeOrder', () => {
  it('values a quantity at the price, half up to 8 decimals', () => {
    const sizing = sizeOrder(order('BUY', 'quantity', '0.00000003'), dec('0.5'));
    expect([sizing.quantity.toFixed(), sizing.value.toFixed()]).toEqual(['0.00000003', '0.00000002']);
  });

  it('buys what a quote amount covers, rounded down, and holds the order to the amount sent', () => {
    const sizing = sizeOrder(order('BUY', 'quoteQuantity', '10'), dec('3'));
    expect([sizing.quantity.toFixed(), sizing.value.toFixed()]).toEqual(['3.33333333', '10']);
    expect(sizeOrder(order('BUY', 'quoteQuantity', '0.00000001'), dec('50000')).quantity.isZero()).toBe(true);
  });

  it('property: the quantity a quote amount buys never costs more than it, and is the most it buys', () => {
    fc.assert(
      fc.property(aSide, anAmount, aPrice, (side, quoteQuantity, price) => {
        const { quantity, value } = sizeOrder(order(side, 'quoteQuantity', quoteQuantity), price);
        expect(quantity.decimalPlaces()).toBeLessThanOrEqual(8);
        expect(quantity.times(price).lte(quoteQuantity)).toBe(true);
        expect(quantity.plus(UNIT).times(price).gt(quoteQuantity)).toBe(true);
        expect(value.eq(quoteQuantity)).toBe(true);
      }),
    );
  });

  it('property: a quantity order is valued within half a unit of quantity x price, 8 decimals', () => {
    fc.assert(
      fc.property(aSide, anAmount, aPrice, (side, quantity, price) => {
        const sizing = sizeOrder(order(side, 'quantity', quantity), price);
        expect(sizing.quantity.eq(quantity)).toBe(true);
        expect(sizing.value.decimalPlaces()).toBeLessThanOrEqual(8);
        expect(sizing.value.minus(quantity.times(price)).abs().lte(HALF_UNIT)).toBe(true);
      }),
    );
  });
});

/** The rules in the order they are checked (docs/decisions.md, "Orders: the checks and limits"). */
const BUY_RULES: readonly OrderRejectionReason[] = [
  'USER_NOT_ACTIVE',
  'KYC_NOT_COMPLETED',
  'TNC_NOT_ACCEPTED',
  'ASSET_NOT_ENABLED',
  'ASSET_DISABLED',
  'PRICE_UNAVAILABLE',
  'AMOUNT_TOO_SMALL',
  'QUOTE_LIMIT',
  'TOTAL_LIMIT',
  'TOTAL_EXPOSURE',
  'ASSET_EXPOSURE',
];
const SELL_RULES: readonly OrderRejectionReason[] = [
  ...BUY_RULES.slice(0, BUY_RULES.indexOf('TOTAL_EXPOSURE')),
  'INSUFFICIENT_HOLDINGS',
];

/**
 * An order and its facts that break exactly the rules in `broken`; every limit is set either at the
 * value it is held to (so it holds) or one unit under it (so the order is one unit over and fails).
 */
function scenario(
  side: OrderSide,
  broken: ReadonlySet<OrderRejectionReason>,
  numbers: { value: Dec; holding: Dec; today: Dec; worth: Dec },
) {
  const { value, holding, today, worth } = numbers;
  const limit = (reason: OrderRejectionReason, at: Dec) =>
    (broken.has(reason) ? at.minus(UNIT) : at).toFixed();
  const quantity = broken.has('AMOUNT_TOO_SMALL') ? new Dec(0) : value;
  const sizing: Sizing | null = broken.has('PRICE_UNAVAILABLE') ? null : { quantity, value };
  const policy: OrgPolicy = {
    ...POLICY,
    enabledAssets: broken.has('ASSET_NOT_ENABLED') ? ['ETH'] : ['ETH', 'BTC'],
    quoteLimit: { EUR: limit('QUOTE_LIMIT', value) },
    totalLimit: { EUR: limit('TOTAL_LIMIT', today.plus(value)) },
    totalExposure: { EUR: limit('TOTAL_EXPOSURE', worth.plus(value)) },
    assetExposure: { BTC: limit('ASSET_EXPOSURE', holding.plus(quantity)) },
  };
  // A SELL holds what it sells plus `holding`, or one unit less than it sells.
  const held =
    side === 'BUY'
      ? holding
      : broken.has('INSUFFICIENT_HOLDINGS')
        ? quantity.minus(UNIT)
        : quantity.plus(holding);
  return {
    request: order(side, 'quantity', value),
    sizing,
    facts: facts({
      userStatus: broken.has('USER_NOT_ACTIVE') ? 'SUSPENDED' : 'ACTIVE',
      kyc: !broken.has('KYC_NOT_COMPLETED'),
      tnc: !broken.has('TNC_NOT_ACCEPTED'),
      policy,
      halted: broken.has('ASSET_DISABLED'),
      holding: held,
      tradedToday: today,
      holdingsValue: worth,
    }),
  };
}

describe('failedCheck', () => {
  const sizing = (value: Decimal.Value, quantity: Decimal.Value = 1): Sizing => ({
    quantity: new Dec(quantity),
    value: new Dec(value),
  });

  it('passes an order that breaks no rule, and a limit with no entry is no limit', () => {
    expect(failedCheck(order('BUY', 'quantity', 1), facts(), sizing(50000))).toBeNull();
  });

  it('holds each limit at its value and fails it one unit over', () => {
    const limited = (policy: Partial<OrgPolicy>, extra: Partial<TradingFacts> = {}) =>
      facts({ policy: { ...POLICY, ...policy }, ...extra });
    const at = (value: string, f: TradingFacts, side: OrderSide = 'BUY', quantity = '1') =>
      failedCheck(order(side, 'quantity', quantity), f, sizing(value, quantity));
    expect(at('100', limited({ quoteLimit: { EUR: '100' } }))).toBeNull();
    expect(at('100.00000001', limited({ quoteLimit: { EUR: '100' } }))).toBe('QUOTE_LIMIT');
    const today = { tradedToday: dec('40') };
    expect(at('60', limited({ totalLimit: { EUR: '100' } }, today))).toBeNull();
    expect(at('60.00000001', limited({ totalLimit: { EUR: '100' } }, today))).toBe('TOTAL_LIMIT');
    const worth = { holdingsValue: dec('70') };
    expect(at('30', limited({ totalExposure: { EUR: '100' } }, worth))).toBeNull();
    expect(at('30.00000001', limited({ totalExposure: { EUR: '100' } }, worth))).toBe('TOTAL_EXPOSURE');
    const holding = { holding: dec('1.5') };
    expect(at('1', limited({ assetExposure: { BTC: '2' } }, holding), 'BUY', '0.5')).toBeNull();
    expect(at('1', limited({ assetExposure: { BTC: '2' } }, holding), 'BUY', '0.50000001')).toBe(
      'ASSET_EXPOSURE',
    );
    expect(at('1', limited({}, holding), 'SELL', '1.5')).toBeNull();
    expect(at('1', limited({}, holding), 'SELL', '1.50000001')).toBe('INSUFFICIENT_HOLDINGS');
  });

  it('does not hold a SELL to the exposure limits, and a limit in another currency does not apply', () => {
    const policy = { ...POLICY, totalExposure: { EUR: '0' }, assetExposure: { BTC: '0' } };
    expect(
      failedCheck(order('SELL', 'quantity', 1), facts({ policy, holding: new Dec(1) }), sizing(5)),
    ).toBeNull();
    const elsewhere = { ...POLICY, quoteLimit: { USD: '1' }, totalExposure: { USD: '1' } };
    expect(failedCheck(order('BUY', 'quantity', 1), facts({ policy: elsewhere }), sizing(5))).toBeNull();
  });

  it('fails TOTAL_EXPOSURE when a position cannot be valued, only where that limit applies', () => {
    const policy = { ...POLICY, totalExposure: { EUR: '1000000' } };
    expect(failedCheck(order('BUY', 'quantity', 1), facts({ policy, holdingsValue: null }), sizing(5))).toBe(
      'TOTAL_EXPOSURE',
    );
    expect(failedCheck(order('BUY', 'quantity', 1), facts({ holdingsValue: null }), sizing(5))).toBeNull();
  });

  it('property: answers the first rule broken, in the order they are checked (docs/decisions.md, "Orders: the checks and limits"), whatever else is broken', () => {
    const aBuyOrSell = aSide.chain((side) =>
      fc.record({
        side: fc.constant(side),
        broken: fc.subarray([...(side === 'BUY' ? BUY_RULES : SELL_RULES)]),
        value: units(2n, 10n ** 14n),
        holding: units(0n, 10n ** 14n),
        today: units(0n, 10n ** 14n),
        worth: units(0n, 10n ** 14n),
      }),
    );
    fc.assert(
      fc.property(aBuyOrSell, ({ side, broken, ...numbers }) => {
        const { request, facts: f, sizing: s } = scenario(side, new Set(broken), numbers);
        const rules = side === 'BUY' ? BUY_RULES : SELL_RULES;
        const first = rules.find((rule) => broken.includes(rule)) ?? null;
        expect(failedCheck(request, f, s)).toBe(first);
      }),
    );
  });
});

describe('holdingsValue', () => {
  it('values the positions at their prices, and is zero with none', () => {
    expect(
      holdingsValue([
        ['BTC', '0.5', '50000'],
        ['ETH', '2', '2500.5'],
      ])?.toFixed(),
    ).toBe('30001');
    expect(holdingsValue([])?.toFixed()).toBe('0');
  });

  it('property: is the sum of quantity x price, or null as soon as any price is missing', () => {
    const aHolding = fc.tuple(fc.constantFrom('BTC', 'ETH', 'SOL'), anAmount, aPrice);
    fc.assert(
      fc.property(fc.array(aHolding, { maxLength: 6 }), fc.nat(), fc.boolean(), (held, at, missing) => {
        const rows = held.map(
          ([asset, q, p]) => [asset, q.toFixed(), p.toFixed()] as [string, string, string | null],
        );
        const sum = held.reduce((total, [, q, p]) => total.plus(q.times(p)), new Dec(0));
        if (missing && rows.length > 0) {
          const row = rows[at % rows.length] as [string, string, string | null];
          row[2] = null;
          expect(holdingsValue(rows)).toBeNull();
        } else {
          expect(holdingsValue(rows)?.eq(sum)).toBe(true);
        }
      }),
    );
  });
});

describe('unfilledAmounts and newOrder', () => {
  it('keep what was asked and zeros elsewhere, with the rates and the mark price as stored', () => {
    const request = order('BUY', 'quoteQuantity', '25.5');
    const amounts = unfilledAmounts(request);
    expect(amounts.quoteQuantity).toBe('25.50000000');
    expect(amounts.quantity).toBe('0.00000000');
    const rates: Rates = { commissionRate: '0.0015', vatRate: '0.21' };
    const row = newOrder(7, '42', request, rates, {
      status: 'REJECTED',
      amounts,
      estimatedPrice: null,
      rejectionReason: 'QUOTE_LIMIT',
    });
    expect(row).toMatchObject({
      orgId: 7,
      userId: '42',
      amountField: 'quoteQuantity',
      quoteQuantity: '25.50000000',
      estimatedPrice: '0.00000000',
      commissionRate: '0.00150000',
      vatRate: '0.21000000',
      commissionAsset: 'EUR',
      status: 'REJECTED',
      rejectionReason: 'QUOTE_LIMIT',
    });
  });
});
