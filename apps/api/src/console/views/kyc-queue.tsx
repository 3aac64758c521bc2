// The KYC review queue: users of every organisation whose form waits for a decision, the longest waiting
// first, with how long each has waited and when the wait ends in expiry.
import { type ListPages, ListTable } from '../../web/components/list-table.js';
import { Notice, Time } from '../../web/components/ui.js';
import type { ConsoleContext } from '../../operators/console-context.js';
import { KYC_QUEUE } from '../nav.js';
import { ConsolePage } from './console-page.js';

export interface QueueItem {
  readonly orgId: number;
  readonly orgName: string;
  readonly orgUserId: string;
  readonly submittedAt: Date;
  readonly expiresAt: Date;
  readonly documents: number;
}

/** A wait as people say it: days and hours, hours and minutes, or minutes. */
export function ageText(since: Date, now = new Date()): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes % 60} min`;
  return `${minutes} min`;
}

/** The address of a user's KYC file in the console. */
export function kycFileHref(orgId: number, orgUserId: string): string {
  return `${KYC_QUEUE}/${orgId}/${encodeURIComponent(orgUserId)}`;
}

export function KycQueuePage(props: {
  readonly ctx: ConsoleContext;
  readonly items: readonly QueueItem[];
  readonly total: number;
  /** The queue's pages: `after` names one (the expiry and user where the page before ended). */
  readonly pages: ListPages;
  /** The start of an orgUserId searched for, across organisations. */
  readonly search?: string | undefined;
  readonly notice?: string | undefined;
}) {
  const now = new Date();
  return (
    <ConsolePage ctx={props.ctx} title="KYC review" section={KYC_QUEUE}>
      {props.notice && <Notice kind="success">{props.notice}</Notice>}
      <form method="get" action={KYC_QUEUE} class="filters" aria-label="Search the queue" role="search">
        <label>
          orgUserId starts with
          <input type="search" name="q" value={props.search ?? ''} maxLength={128} />
        </label>
        <button type="submit">Search</button>
      </form>
      <p>
        {props.total === 0
          ? props.search
            ? 'No KYC of a matching user waits for a decision.'
            : 'No KYC waits for a decision.'
          : `${props.total} waiting for a decision${props.search ? ' with a matching orgUserId' : ''}, the longest waiting first.`}
      </p>
      <ListTable
        pages={props.pages}
        caption="KYC waiting for a decision, oldest first"
        head={['Waiting', 'Organisation', 'User', 'Documents', 'Submitted', 'Expires']}
        numeric={['Documents']}
        rows={props.items.length}
        empty="Nothing to review."
      >
        {props.items.map((item) => (
          <tr key={`${item.orgId}/${item.orgUserId}`}>
            <td>{ageText(item.submittedAt, now)}</td>
            <td>
              {item.orgName} <span class="muted">({item.orgId})</span>
            </td>
            <td class="wrap">
              <a href={kycFileHref(item.orgId, item.orgUserId)}>{item.orgUserId}</a>
            </td>
            <td class="num">{item.documents}</td>
            <td>
              <Time iso={item.submittedAt.toISOString()} />
            </td>
            <td>
              <Time iso={item.expiresAt.toISOString()} />
            </td>
          </tr>
        ))}
      </ListTable>
    </ConsolePage>
  );
}
