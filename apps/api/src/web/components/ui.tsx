// Small building blocks of the pages: notices, facts, tables, paging, times, amounts and state badges.
import { cloneElement, type ComponentChildren, Fragment, toChildArray, type VNode } from 'preact';

import { type AmountValue, formatAmount, formatRate, formatUtc } from '../format.js';

export type NoticeKind = 'success' | 'error' | 'info';

export function Notice(props: { readonly kind: NoticeKind; readonly children?: ComponentChildren }) {
  return (
    <div class={`notice notice-${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

/** Label and value pairs, as a description list. */
export function Facts(props: { readonly items: readonly (readonly [string, ComponentChildren])[] }) {
  return (
    <dl class="facts">
      {props.items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A table; on a phone, one card per row (docs/decisions.md, "Web pages: lists on a phone"): each cell of a row
 * written as <tr><td>… gets its column's heading as `data-label`, which tables.css shows beside the value, and
 * every part its table role in ARIA, which a browser drops from a table whose CSS display is not a table's.
 * With `stack` false it stays a table that scrolls sideways, in a region focusable so keyboards can scroll it.
 */
export function Table(props: {
  readonly caption: string;
  readonly head: readonly string[];
  /** Columns (by heading) whose values are numbers, aligned right. */
  readonly numeric?: readonly string[];
  /** On a narrow screen, one card per row, its cells labelled (the default), or a table to scroll sideways. */
  readonly stack?: boolean;
  readonly children?: ComponentChildren;
  readonly empty?: string;
  readonly rows: number;
}) {
  if (props.rows === 0) return <p class="empty">{props.empty ?? 'Nothing to show.'}</p>;
  const stack = props.stack !== false;
  const role = <R extends 'table' | 'rowgroup' | 'row' | 'columnheader'>(name: R) =>
    stack ? name : undefined;
  return (
    <div
      class={stack ? 'table-wrap stack' : 'table-wrap'}
      role="region"
      aria-label={props.caption}
      tabIndex={0}
    >
      <table role={role('table')}>
        <caption>{props.caption}</caption>
        <thead role={role('rowgroup')}>
          <tr role={role('row')}>
            {props.head.map((name) => (
              <th
                scope="col"
                role={role('columnheader')}
                key={name}
                class={props.numeric?.includes(name) ? 'num' : undefined}
              >
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role={role('rowgroup')}>{labelCells(props.children, props.head, stack)}</tbody>
      </table>
    </div>
  );
}

type Cell = VNode<{
  children?: ComponentChildren;
  colSpan?: number;
  scope?: string;
  role?: string;
  'data-label'?: string;
}>;

/**
 * The rows with each cell's column heading as its `data-label` (a cell that names its own keeps it) and, for
 * a stacked table, each row and cell its ARIA role.
 */
function labelCells(rows: ComponentChildren, head: readonly string[], roles: boolean): ComponentChildren {
  return toChildArray(rows).map((row) => {
    if (typeof row !== 'object' || row.type !== 'tr') return row;
    let column = 0;
    const cells = toChildArray((row as Cell).props.children).map((child) => {
      if (typeof child !== 'object' || (child.type !== 'td' && child.type !== 'th')) return child;
      const cell = child as Cell;
      const label = cell.props['data-label'] ?? head[column];
      column += cell.props.colSpan ?? 1;
      const role: 'rowheader' | 'cell' =
        cell.type === 'th' && cell.props.scope === 'row' ? 'rowheader' : 'cell';
      return cloneElement(cell, {
        ...(label === undefined ? {} : { 'data-label': label }),
        ...(roles && cell.props.role === undefined ? { role } : {}),
      });
    });
    return cloneElement(row, roles ? { role: 'row' } : {}, ...cells);
  });
}

/** `path` with the non-empty `params` as its query. */
export function hrefWith(path: string, params: Readonly<Record<string, string | undefined>>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** Links to the first page (when not on it) and to the next one (when there is one). */
export function Pager(props: { readonly first?: string | undefined; readonly next?: string | undefined }) {
  if (!props.first && !props.next) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {props.first && <a href={props.first}>First page</a>}
      {props.next && <a href={props.next}>Next page</a>}
    </nav>
  );
}

/**
 * An ISO 8601 time, written in UTC to the second; public/web.js shows it in the viewer's zone. The exact
 * value stays in `datetime` and in the title.
 */
export function Time(props: { readonly iso: string | null | undefined; readonly empty?: string }) {
  if (!props.iso) return <span class="muted">{props.empty ?? 'never'}</span>;
  return (
    <time dateTime={props.iso} title={props.iso}>
      {formatUtc(props.iso)}
    </time>
  );
}

/**
 * An amount with its unit, grouped by thousands with every digit it holds ("1,234.5 EUR"); the exact
 * decimal is the element's value and title, to read or copy without the grouping.
 */
export function Amount(props: { readonly value: AmountValue; readonly unit?: string | undefined }) {
  const shown = formatAmount(props.value, props.unit);
  return (
    <data
      class="amount"
      value={shown.exact}
      title={`Exactly ${shown.exact}${props.unit ? ` ${props.unit}` : ''}`}
    >
      {shown.text}
    </data>
  );
}

/** Amounts by currency or asset code ({ EUR: 25000 }): "25,000 EUR, 0.5 BTC". */
export function AmountMap(props: { readonly amounts: Readonly<Record<string, AmountValue>> }) {
  return (
    <>
      {Object.entries(props.amounts).map(([code, amount], index) => (
        <Fragment key={code}>
          {index > 0 && ', '}
          <Amount value={amount} unit={code} />
        </Fragment>
      ))}
    </>
  );
}

/** A rate as a percentage ("0.15 %"), the exact stored fraction as the element's value and title. */
export function Rate(props: { readonly value: AmountValue }) {
  const shown = formatRate(props.value);
  return (
    <data class="rate" value={shown.exact} title={`Exactly ${shown.exact}`}>
      {shown.text}
    </data>
  );
}

export type Tone = 'good' | 'bad' | 'warn' | 'neutral';

export function Badge(props: { readonly tone: Tone; readonly children?: ComponentChildren }) {
  return <span class={`badge badge-${props.tone}`}>{props.children}</span>;
}

/**
 * Code or JSON, pre-formatted, in a focusable region so it scrolls by keyboard; `wrap` folds long lines
 * (a one-line body) instead.
 */
export function CodeBlock(props: { readonly label: string; readonly text: string; readonly wrap?: boolean }) {
  return (
    <pre class={props.wrap ? 'code code-wrap' : 'code'} role="region" aria-label={props.label} tabIndex={0}>
      <code>{props.text}</code>
    </pre>
  );
}

/**
 * An amount as the api answers it, ungrouped, for a form field to edit: a number, or the exact-digits JSON
 * value of common/decimal.ts (exactNumber), which only JSON.stringify can write. Pages show <Amount>.
 */
export function amountText(value: number): string {
  return JSON.stringify(value);
}
