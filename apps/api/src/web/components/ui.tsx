// Small building blocks of the pages: notices, facts, tables, paging, times and state badges.
import type { ComponentChildren } from 'preact';

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

/** A table that scrolls sideways on narrow screens; the region is focusable so keyboards can scroll it. */
export function Table(props: {
  readonly caption: string;
  readonly head: readonly string[];
  /** Columns (by heading) whose values are numbers, aligned right. */
  readonly numeric?: readonly string[];
  readonly children?: ComponentChildren;
  readonly empty?: string;
  readonly rows: number;
}) {
  if (props.rows === 0) return <p class="empty">{props.empty ?? 'Nothing to show.'}</p>;
  return (
    <div class="table-wrap" role="region" aria-label={props.caption} tabIndex={0}>
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.head.map((name) => (
              <th scope="col" key={name} class={props.numeric?.includes(name) ? 'num' : undefined}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
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

/** An ISO 8601 time, shown as UTC to the second (milliseconds in the title). */
export function Time(props: { readonly iso: string | null | undefined; readonly empty?: string }) {
  if (!props.iso) return <span class="muted">{props.empty ?? 'never'}</span>;
  const text = props.iso.replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC');
  return (
    <time dateTime={props.iso} title={props.iso}>
      {text}
    </time>
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
 * An amount as the api answers it: a number, or the exact-digits JSON value of common/decimal.ts
 * (exactNumber), which only JSON.stringify can write.
 */
export function amountText(value: number): string {
  return JSON.stringify(value);
}
