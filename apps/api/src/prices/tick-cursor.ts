// The cursor of a pair's tick history: ticks run by time, then id (two ticks may share a millisecond).
import type { CursorKey } from '../common/pagination.js';

export interface TickKey {
  readonly at: Date;
  readonly id: string;
}

/** `<ISO time>_<id>`, e.g. 2030-01-31T12:00:00.000Z_42. */
export const TICK_KEY: CursorKey<TickKey> = {
  parse(text) {
    const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([1-9][0-9]{0,18})$/.exec(text);
    const at = match?.[1] ? new Date(match[1]) : undefined;
    if (!match?.[2] || !at || Number.isNaN(at.getTime())) return undefined;
    return { at, id: match[2] };
  },
  format: (key) => `${key.at.toISOString()}_${key.id}`,
};
