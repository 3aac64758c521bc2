// Cursor pagination for list endpoints: `limit` (1..100, default 20) and an opaque `cursor` from the
// previous page's `nextCursor`; items come in creation order.
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

import { badRequest } from './errors.js';

export class PageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'cursor must be a nextCursor returned by the previous page' })
  cursor?: string;
}

export interface Page<T> {
  readonly items: T[];
  /** Pass as `cursor` for the next page; null on the last page. */
  readonly nextCursor: string | null;
}

export const DEFAULT_PAGE_SIZE = 20;

/** The row id a cursor points after. */
export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[0-9]{1,19}$/.test(id))
    throw badRequest('cursor must be a nextCursor returned by the previous page');
  return id;
}

/** Builds a page from `limit + 1` rows fetched after the cursor. */
export function toPage<Row extends { id: string }, T>(
  rows: Row[],
  limit: number,
  view: (row: Row) => T,
): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map(view),
    nextCursor: rows.length > limit && last ? Buffer.from(last.id).toString('base64url') : null,
  };
}
