// The one keyset pagination of every list route: `limit` (1..100, default 20) and an opaque `cursor`, the
// previous page's `nextCursor`; items in the order of the list's key (its id, or a prices' symbol).
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { type FindOptionsWhere, LessThan, MoreThan, type ObjectLiteral, type Repository } from 'typeorm';

import { SYMBOL } from './assets.js';
import { badRequest } from './errors.js';
import { ApiPropertyOptional } from '@nestjs/swagger';

const CURSOR_RULE = 'cursor must be a nextCursor returned by the previous page';

/** The query of every list route; a route's filters extend it. */
export class PageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'Items per page',
  })
  limit?: number;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: CURSOR_RULE })
  @ApiPropertyOptional({
    pattern: '^[A-Za-z0-9_-]{1,64}$',
    description: 'The `nextCursor` of the previous page',
  })
  cursor?: string;
}

export interface Page<T> {
  readonly items: T[];
  /** Pass as `cursor` for the next page; null on the last page. */
  readonly nextCursor: string | null;
}

export const DEFAULT_PAGE_SIZE = 20;

/** A list's key as its cursor carries it (base64url of the key's text), checked when read back. */
export interface CursorKey<K> {
  parse(text: string): K | undefined;
  format(key: K): string;
}

/** A bigint row id (pg returns it as a string). */
export const ROW_ID: CursorKey<string> = {
  parse: (text) => (/^[0-9]{1,19}$/.test(text) ? text : undefined),
  format: (id) => id,
};

/** An integer row id (organisations). */
export const INT_ID: CursorKey<number> = {
  parse: (text) => (/^[0-9]{1,10}$/.test(text) ? Number(text) : undefined),
  format: (id) => String(id),
};

/** A trading pair (prices are listed by symbol). */
export const SYMBOL_KEY: CursorKey<string> = {
  parse: (text) => (SYMBOL.test(text) ? text : undefined),
  format: (symbol) => symbol,
};

/** The key a cursor points after, or the 400 that says the cursor is not one of ours. */
export function decodeCursor<K>(cursor: string | undefined, key: CursorKey<K>): K | undefined {
  if (cursor === undefined) return undefined;
  const after = key.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (after === undefined) throw badRequest(CURSOR_RULE);
  return after;
}

export function encodeCursor<K>(after: K, key: CursorKey<K>): string {
  return Buffer.from(key.format(after)).toString('base64url');
}

/** Builds a page from `limit + 1` rows read after the cursor. */
export function toPage<Row, K>(
  rows: Row[],
  limit: number,
  keyOf: (row: Row) => K,
  key: CursorKey<K>,
): Page<Row> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items,
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last), key) : null,
  };
}

export function mapPage<A, B>(page: Page<A>, view: (item: A) => B): Page<B> {
  return { items: page.items.map(view), nextCursor: page.nextCursor };
}

/** Which column orders a list and how its cursor carries that column's value. */
export interface Keyset<E, C extends keyof E & string> {
  readonly column: C;
  readonly key: CursorKey<E[C]>;
}

/**
 * Which way a list runs along its key: the api's lists run oldest first (ascending ids); the dashboard shows
 * the newest first.
 */
export type PageOrder = 'oldest-first' | 'newest-first';

/**
 * The keyset read every list shares: the rows matching `where` after the cursor, in key order, one more
 * than the page holds to learn whether another page follows.
 */
export async function findPage<E extends ObjectLiteral, C extends keyof E & string>(
  repository: Repository<E>,
  where: FindOptionsWhere<E>,
  keyset: Keyset<E, C>,
  query: PageQuery,
  order: PageOrder = 'oldest-first',
): Promise<Page<E>> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const after = decodeCursor(query.cursor, keyset.key);
  const newestFirst = order === 'newest-first';
  const filter =
    after === undefined
      ? where
      : { ...where, [keyset.column]: newestFirst ? LessThan(after) : MoreThan(after) };
  const rows = await repository.find({
    where: filter,
    order: { [keyset.column]: newestFirst ? 'DESC' : 'ASC' } as never,
    take: limit + 1,
  });
  return toPage(rows, limit, (row) => row[keyset.column], keyset.key);
}
