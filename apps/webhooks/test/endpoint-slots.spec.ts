// The per-endpoint cap's line: an attempt waits while its endpoint's line moves quickly, up to the longest
// wait, and gives up early when the line stands still or the endpoint is slow (slower than the process's
// attempts by far). Real timers.
import { EndpointSlots } from '../src/endpoint-slots.js';

// Wide margins against a loaded machine's late timers: holds of 30 ms against checks of 200 ms.
const WAITS = { checkMs: 200, maxWaitMs: 1200 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Holds one slot of `endpoint` for `ms` once it has one, then lets it go; answers whether it got one. */
async function hold(slots: EndpointSlots, endpoint: string, ms: number): Promise<boolean> {
  const release = await slots.acquire(endpoint);
  if (!release) return false;
  await sleep(ms);
  release();
  return true;
}

/** How long `acquire` took and whether it got a slot (released at once). */
async function timedAcquire(slots: EndpointSlots, endpoint: string): Promise<{ got: boolean; ms: number }> {
  const started = performance.now();
  const release = await slots.acquire(endpoint);
  release?.();
  return { got: release !== null, ms: performance.now() - started };
}

describe('EndpointSlots', () => {
  it('gives a free slot at once, up to the limit per endpoint', async () => {
    const slots = new EndpointSlots(2, WAITS);
    const first = await slots.acquire('a');
    const second = await slots.acquire('a');
    const other = await slots.acquire('b');
    expect([first, second, other].every((release) => typeof release === 'function')).toBe(true);
    expect(slots.active('a')).toBe(2);
    first?.();
    first?.(); // a second call does nothing
    expect(slots.active('a')).toBe(1);
    second?.();
    other?.();
    expect(slots.active('a')).toBe(0);
  });

  it('gives up after one check when the line stands still (a stuck endpoint)', async () => {
    const slots = new EndpointSlots(1, WAITS);
    const stuck = await slots.acquire('a');
    const { got, ms } = await timedAcquire(slots, 'a');
    expect(got).toBe(false);
    expect(ms).toBeGreaterThanOrEqual(195);
    // One check, or a few on a machine so loaded that they come late; well before the longest wait.
    expect(ms).toBeLessThan(WAITS.maxWaitMs - 200);
    stuck?.();
  });

  it('does not judge the line at a check the process was too busy to make on time', async () => {
    const slots = new EndpointSlots(1, WAITS);
    const stuck = await slots.acquire('a');
    const waiting = timedAcquire(slots, 'a');
    // The process is busy from 150 to 350 ms: the check due at 200 ms comes ~150 ms late, and passes.
    await sleep(150);
    const busyUntil = performance.now() + 200;
    while (performance.now() < busyUntil);
    const { got, ms } = await waiting;
    expect(got).toBe(false);
    // The next check, on time, finds the line still: given up at ~550 ms rather than ~350.
    expect(ms).toBeGreaterThanOrEqual(500);
    expect(ms).toBeLessThan(900);
    stuck?.();
  });

  it('keeps waiting past the check while quick attempts move the line', async () => {
    const slots = new EndpointSlots(1, WAITS);
    // Eight quick holders ahead (30 ms each): the waiter behind them waits ~240 ms, past one check.
    const ahead = Array.from({ length: 8 }, () => hold(slots, 'a', 30));
    const { got, ms } = await timedAcquire(slots, 'a');
    expect(await Promise.all(ahead)).toEqual(Array.from({ length: 8 }, () => true));
    expect(got).toBe(true);
    expect(ms).toBeGreaterThan(WAITS.checkMs);
  });

  it('gives up after one check behind a slow endpoint, though its line moves', async () => {
    const slots = new EndpointSlots(2, WAITS);
    // One slot held throughout (so the endpoint's record is kept); on the other, an attempt of 300 ms:
    // longer than a check, and than the process's attempts by far, those to a quick endpoint (5 ms).
    const keeper = await slots.acquire('a');
    expect(await hold(slots, 'a', 300)).toBe(true);
    for (let i = 0; i < 10; i++) expect(await hold(slots, 'b', 5)).toBe(true);
    // One attempt holds 150 ms, one waits behind it (its slot at 150 ms), the measured one behind both: at
    // its check (200 ms) the line has moved, but the endpoint is slow; waiting on would give it a slot at
    // 300 ms.
    const ahead = [hold(slots, 'a', 150), hold(slots, 'a', 150)];
    const { got, ms } = await timedAcquire(slots, 'a');
    expect(await Promise.all(ahead)).toEqual([true, true]);
    keeper?.();
    expect(got).toBe(false);
    expect(ms).toBeLessThan(290);
  });

  it('waits on when every endpoint is as slow (the worker starved, not the endpoint)', async () => {
    const slots = new EndpointSlots(2, WAITS);
    // The same line as above, but the other endpoint's attempts take as long: nothing is slow by
    // comparison, so the measured attempt gets its slot when the second one ahead lets it go (~300 ms).
    const keeper = await slots.acquire('a');
    expect(await Promise.all([hold(slots, 'a', 300), hold(slots, 'b', 300)])).toEqual([true, true]);
    const ahead = [hold(slots, 'a', 150), hold(slots, 'a', 150)];
    const { got, ms } = await timedAcquire(slots, 'a');
    expect(await Promise.all(ahead)).toEqual([true, true]);
    keeper?.();
    expect(got).toBe(true);
    expect(ms).toBeGreaterThan(WAITS.checkMs);
  });

  it('waits no longer than the longest wait, however quickly the line moves', async () => {
    const slots = new EndpointSlots(1, WAITS);
    // Quick holders that keep the line busy for ~1.5 s.
    const ahead = Array.from({ length: 50 }, () => hold(slots, 'a', 30));
    const { got, ms } = await timedAcquire(slots, 'a');
    expect((await Promise.all(ahead)).filter(Boolean).length).toBeGreaterThan(30);
    expect(got).toBe(false);
    expect(ms).toBeGreaterThanOrEqual(WAITS.maxWaitMs - 5);
    expect(ms).toBeLessThan(WAITS.maxWaitMs + 300);
  });
});
