/** The longest wait between two connection attempts. */
export const MAX_RECONNECT_MS = 60_000;

/**
 * The wait before connection attempt `failures + 1` after `failures` failed ones in a row: `baseMs` doubled
 * per failure up to a minute, then drawn from its upper half (`random` in [0, 1)), so that instances that
 * lost the exchange together do not all knock again at the same moment.
 */
export function reconnectDelay(failures: number, baseMs: number, random: number = Math.random()): number {
  const ceiling = Math.min(MAX_RECONNECT_MS, baseMs * 2 ** Math.min(failures, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}
