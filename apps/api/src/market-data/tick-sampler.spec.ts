import fc from 'fast-check';

import { type SampledTick, TickSampler } from './tick-sampler.js';

const tick = (price: string, symbol = 'BTC_EUR', at = new Date(0)): SampledTick => ({ symbol, price, at });

describe('TickSampler', () => {
  it('keeps the first price of a pair, then at most one per interval, and only changes', () => {
    const sampler = new TickSampler(1000);
    expect(sampler.offer(tick('1'), 0)).toBe('tick');
    expect(sampler.offer(tick('1'), 5000)).toBe('same');
    expect(sampler.offer(tick('2'), 5000)).toBe('tick');
    expect(sampler.offer(tick('3'), 5100)).toBe('held');
    expect(sampler.offer(tick('1', 'ETH_EUR'), 5100)).toBe('tick');
    expect(sampler.due(5999)).toEqual([]);
  });

  it('keeps the last price of a burst once the interval is over, with its quote time', () => {
    const sampler = new TickSampler(1000);
    sampler.offer(tick('1'), 0);
    expect(sampler.offer(tick('2', 'BTC_EUR', new Date(100)), 100)).toBe('held');
    expect(sampler.offer(tick('3', 'BTC_EUR', new Date(200)), 200)).toBe('held');
    expect(sampler.offer(tick('3', 'BTC_EUR', new Date(300)), 300)).toBe('same');
    expect(sampler.holding()).toBe(true);
    expect(sampler.due(999)).toEqual([]);
    expect(sampler.due(1000)).toEqual([tick('3', 'BTC_EUR', new Date(200))]);
    expect(sampler.holding()).toBe(false);
    expect(sampler.due(5000)).toEqual([]);
    // The held price became the kept one: the next interval counts from when it was kept.
    expect(sampler.offer(tick('4'), 1500)).toBe('held');
    expect(sampler.offer(tick('3'), 1600)).toBe('same');
  });

  it('drops a held change that went back to the kept price', () => {
    const sampler = new TickSampler(1000);
    sampler.offer(tick('1'), 0);
    sampler.offer(tick('2'), 100);
    expect(sampler.offer(tick('1'), 200)).toBe('same');
    expect(sampler.due(1000)).toEqual([]);
  });

  it('never keeps two ticks of a pair within an interval, and always ends on the last price (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ gap: fc.nat({ max: 1500 }), price: fc.constantFrom('1', '2', '3') }), {
          minLength: 1,
        }),
        (offers) => {
          const sampler = new TickSampler(1000);
          const kept: { at: number; price: string }[] = [];
          let now = 0;
          for (const { gap, price } of offers) {
            now += gap;
            for (const due of sampler.due(now)) kept.push({ at: now, price: due.price });
            if (sampler.offer(tick(price), now) === 'tick') kept.push({ at: now, price });
          }
          for (const due of sampler.due(now + 1000)) kept.push({ at: now + 1000, price: due.price });
          for (let i = 1; i < kept.length; i++) {
            expect(kept[i]!.at - kept[i - 1]!.at).toBeGreaterThanOrEqual(1000);
            expect(kept[i]!.price).not.toBe(kept[i - 1]!.price);
          }
          expect(kept.at(-1)?.price).toBe(offers.at(-1)?.price);
        },
      ),
    );
  });
});
