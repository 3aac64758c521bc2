// A small harness for micro-benchmarks measured against a reference in the same run: the candidates
// run in alternating rounds (so a noisy neighbour hurts both alike), and each figure is the median
// over the rounds. Times are wall-clock; ratios are what we compare.
import { hrtime } from 'node:process';

/**
 * Runs every task `rounds` times, interleaved, each round lasting about `roundMs`.
 * Returns the median operations per second of each task, by name.
 */
export function measure(tasks, { rounds = 7, roundMs = 300 } = {}) {
  const samples = Object.fromEntries(Object.keys(tasks).map((name) => [name, []]));
  const batch = Object.fromEntries(Object.keys(tasks).map((name) => [name, calibrate(tasks[name], roundMs)]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, fn] of Object.entries(tasks)) {
      const start = hrtime.bigint();
      for (let i = 0; i < batch[name]; i++) fn();
      const seconds = Number(hrtime.bigint() - start) / 1e9;
      samples[name].push(batch[name] / seconds);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

/** How many calls fill one round; also warms the function up. */
function calibrate(fn, roundMs) {
  let count = 1;
  for (;;) {
    const start = hrtime.bigint();
    for (let i = 0; i < count; i++) fn();
    const ms = Number(hrtime.bigint() - start) / 1e6;
    if (ms >= roundMs / 4) return Math.max(1, Math.round((count * roundMs) / ms));
    count *= 2;
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function formatOps(opsPerSecond) {
  return Math.round(opsPerSecond).toLocaleString('en-US');
}
