// The plan of a policy change on its own, written nowhere: what changes, what the audit entry records, and
// which Actions events follow (docs/api-guide.md#actions-events), in their order and with their maps.
import { DEFAULT_POLICY, type OrgPolicy } from '@svc/db';

import { Dec } from '../common/decimal.js';
import type { UpdatePolicyDto } from './dto/update-policy.dto.js';
import { planPolicyChange } from './policy.service.js';

const POLICY: OrgPolicy = {
  ...DEFAULT_POLICY,
  enabledAssets: ['BTC', 'ETH'],
  quoteLimit: { EUR: '1000', USD: '500.5' },
  totalLimit: { EUR: '10000' },
  commissionRate: '0.0015',
  vatRate: '0.21',
};

/** A limit map as the body gives it: exact decimals. */
const amounts = (map: Record<string, string>) =>
  Object.fromEntries(Object.entries(map).map(([code, text]) => [code, new Dec(text)]));
const update = (input: Partial<Record<keyof UpdatePolicyDto, unknown>>) => input as UpdatePolicyDto;
/** The events' maps as they reach the wire. */
const wire = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('planPolicyChange', () => {
  it('changes nothing and emits nothing when every field sent is the same value, spelt otherwise', () => {
    const plan = planPolicyChange(
      POLICY,
      update({
        enabledAssets: ['ETH', 'BTC'],
        quoteLimit: amounts({ USD: '500.50', EUR: '1000.00000000' }),
        totalLimit: amounts({ EUR: '1e4' }),
        commissionRate: new Dec('0.00150'),
        vatRate: new Dec('0.21'),
      }),
    );
    expect(plan).toEqual({ next: POLICY, changes: {}, actions: [] });
  });

  it('replaces a limit map whole, canonical, and emits its event with the complete new map', () => {
    const plan = planPolicyChange(POLICY, update({ quoteLimit: amounts({ USD: '750.00', BTC: '0.5' }) }));
    expect(plan.next).toEqual({ ...POLICY, quoteLimit: { BTC: '0.5', USD: '750' } });
    expect(plan.changes).toEqual({
      quoteLimit: { from: { EUR: '1000', USD: '500.5' }, to: { BTC: '0.5', USD: '750' } },
    });
    expect(wire(plan.actions)).toEqual([{ name: 'QUOTE_LIMIT', newValues: { BTC: 0.5, USD: 750 } }]);
  });

  it('emits one event per changed limit, in the order the guide lists them, and none for a rate', () => {
    const plan = planPolicyChange(
      POLICY,
      update({
        assetExposure: amounts({ BTC: '2' }),
        totalExposure: amounts({ EUR: '0' }),
        totalLimit: amounts({ EUR: '10000' }),
        quoteLimit: amounts({}),
        vatRate: new Dec('0.2'),
      }),
    );
    expect(plan.actions.map((action) => action.name)).toEqual([
      'QUOTE_LIMIT',
      'TOTAL_EXPOSURE',
      'ASSET_EXPOSURE',
    ]);
    expect(wire(plan.actions)).toEqual([
      { name: 'QUOTE_LIMIT', newValues: {} },
      { name: 'TOTAL_EXPOSURE', newValues: { EUR: 0 } },
      { name: 'ASSET_EXPOSURE', newValues: { BTC: 2 } },
    ]);
    expect(Object.keys(plan.changes).sort()).toEqual([
      'assetExposure',
      'quoteLimit',
      'totalExposure',
      'vatRate',
    ]);
    expect(plan.changes.vatRate).toEqual({ from: '0.21', to: '0.2' });
    expect(plan.next.vatRate).toBe('0.2');
    expect(plan.next.totalLimit).toBe(POLICY.totalLimit);
  });

  it('emits ASSET_ENABLE with 1 for every enabled asset and 0 for every one removed, sorted', () => {
    const plan = planPolicyChange(POLICY, update({ enabledAssets: ['SOL', 'BTC'] }));
    expect(plan.next.enabledAssets).toEqual(['BTC', 'SOL']);
    expect(plan.changes).toEqual({ enabledAssets: { from: ['BTC', 'ETH'], to: ['BTC', 'SOL'] } });
    expect(plan.actions).toEqual([{ name: 'ASSET_ENABLE', newValues: { BTC: 1, ETH: 0, SOL: 1 } }]);
  });

  it('keeps the digits of an amount beyond a double, in the stored map and on the wire', () => {
    const huge = '123456789012345678901234567890.12345678';
    const plan = planPolicyChange(POLICY, update({ totalLimit: amounts({ EUR: huge }) }));
    expect(plan.next.totalLimit).toEqual({ EUR: huge });
    expect(JSON.stringify(plan.actions)).toBe(`[{"name":"TOTAL_LIMIT","newValues":{"EUR":${huge}}}]`);
  });

  it('leaves the policy it was given as it was', () => {
    const before = structuredClone(POLICY);
    planPolicyChange(
      POLICY,
      update({ enabledAssets: [], quoteLimit: amounts({ EUR: '1' }), commissionRate: new Dec('0') }),
    );
    expect(POLICY).toEqual(before);
  });
});
