// A list page's table and its pager: the rows of one page, then links to the first page (when not on it)
// and to the next one (when there is one), each keeping the list's filters. On a phone each row is a card
// of labelled cells (as every Table), so status and time never sit off-screen.
import type { ComponentChildren } from 'preact';

import { hrefWith, Pager, Table } from './ui.js';

/** Where a list's pages are. */
export interface ListPages {
  /** The list's page, without a query. */
  readonly path: string;
  /** Its filters, kept on every page's link (the empty ones left out). */
  readonly params?: Readonly<Record<string, string | undefined>>;
  /** The query parameter that names a page (default `cursor`). */
  readonly param?: string;
  /** The page shown: its cursor, or none on the first page. */
  readonly cursor: string | undefined;
  /** The next page's cursor, or none on the last page. */
  readonly nextCursor: string | null | undefined;
}

export function ListTable(props: {
  readonly caption: string;
  readonly head: readonly string[];
  /** Columns (by heading) whose values are numbers, aligned right. */
  readonly numeric?: readonly string[];
  readonly rows: number;
  readonly empty: string;
  readonly pages: ListPages;
  readonly children?: ComponentChildren;
}) {
  const { pages } = props;
  const params = pages.params ?? {};
  return (
    <>
      <Table
        caption={props.caption}
        head={props.head}
        rows={props.rows}
        empty={props.empty}
        {...(props.numeric ? { numeric: props.numeric } : {})}
      >
        {props.children}
      </Table>
      <Pager
        first={pages.cursor ? hrefWith(pages.path, params) : undefined}
        next={
          pages.nextCursor
            ? hrefWith(pages.path, { ...params, [pages.param ?? 'cursor']: pages.nextCursor })
            : undefined
        }
      />
    </>
  );
}
