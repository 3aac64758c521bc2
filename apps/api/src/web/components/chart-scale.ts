// The arithmetic of the charts (chart.tsx): a value axis with round ticks, positions along both axes, and
// which labels of a crowded category axis to show. Pure, so the unit tests read it without rendering.

/** A value axis from 0: its top and the ticks from 0 to it, each a round number (1, 2, 2.5 or 5 × 10ⁿ). */
export interface ValueScale {
  readonly top: number;
  readonly ticks: readonly number[];
}

const STEPS = [1, 2, 2.5, 5, 10] as const;

/** The smallest round step at least `raw`. */
function roundStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = STEPS.find((candidate) => candidate * power >= raw) ?? 10;
  return step * power;
}

/**
 * A scale holding every value, with about `ticks` steps. `whole` keeps the steps whole numbers (counts:
 * no "2.5 attempts"). No value above 0 (an empty chart) gives the axis 0 to 1.
 */
export function valueScale(
  values: Iterable<number | null>,
  options: { whole?: boolean; ticks?: number } = {},
) {
  let max = 0;
  for (const value of values) if (value !== null && Number.isFinite(value) && value > max) max = value;
  if (max === 0) return { top: 1, ticks: [0, 1] };
  let step = roundStep(max / (options.ticks ?? 4));
  if (options.whole) step = Math.max(1, Math.ceil(step));
  const count = Math.ceil(max / step - 1e-9);
  // Float steps (0.1 × 3) are rounded to the step's own digits, so a tick reads 0.3, not 0.30000000000000004.
  const digits = Math.max(0, -Math.floor(Math.log10(step)) + 2);
  const ticks = Array.from({ length: count + 1 }, (_, i) => Number((i * step).toFixed(digits)));
  return { top: ticks[ticks.length - 1] ?? 1, ticks } satisfies ValueScale;
}

/**
 * The indexes of `count` categories to label on the axis so that at most `max` labels show, evenly spaced,
 * the last always among them (the most recent hour or day is the one people look for).
 */
export function labelledIndexes(count: number, max: number): number[] {
  if (count <= 0) return [];
  if (count <= max) return Array.from({ length: count }, (_, i) => i);
  const every = Math.ceil(count / max);
  const indexes: number[] = [];
  for (let i = count - 1; i >= 0; i -= every) indexes.unshift(i);
  return indexes;
}

/** A short number for an axis tick: 950, 1.2k, 3.4M; exact digits are in the chart's table. */
export function compactNumber(value: number): string {
  const abs = Math.abs(value);
  const trim = (n: number) => String(Number(n.toFixed(n < 10 ? 2 : 1)));
  if (abs >= 1e9) return `${trim(value / 1e9)}G`;
  if (abs >= 1e6) return `${trim(value / 1e6)}M`;
  if (abs >= 1e4) return `${trim(value / 1e3)}k`;
  return trim(value);
}

/** Where `x` falls between `from` and `to`, as a position in [start, end] (the middle when from = to). */
export function position(x: number, from: number, to: number, start: number, end: number): number {
  if (to === from) return (start + end) / 2;
  return start + ((x - from) / (to - from)) * (end - start);
}
