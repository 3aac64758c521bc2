// System notices: the trading halts in force or to come, the publish form (TRADING_OPS) saying what each
// kind of notice does, and every notice published.
import { SYSTEM_NOTICES } from '@svc/protocol';

import type { Page } from '../../common/pagination.js';
import type { NoticeView } from '../../notices/notice.view.js';
import type { TradingHalt } from '../../notices/notices.repository.js';
import { PostForm } from '../../web/components/forms.js';
import { ListTable } from '../../web/components/list-table.js';
import { Badge, Table, Time } from '../../web/components/ui.js';
import type { ConsoleContext } from '../../operators/console-context.js';
import { ConsolePage } from './console-page.js';
import { Done, mayAct } from './done.js';

export function NoticesPage(props: {
  readonly ctx: ConsoleContext;
  readonly notices: Page<NoticeView>;
  readonly halts: readonly TradingHalt[];
  readonly cursor: string | undefined;
  readonly done: string | undefined;
}) {
  const { ctx, notices, halts } = props;
  return (
    <ConsolePage ctx={ctx} title="System notices" section="/console/notices">
      <Done
        done={props.done}
        messages={{ published: 'The notice is published: every organisation with a webhook is told.' }}
      />
      <h2>Trading halts</h2>
      <Table
        caption="Pairs halted by an ASSET_DISABLE notice, not yet ended"
        head={['Symbol', 'From', 'Until', 'Notice']}
        rows={halts.length}
        empty="No pair is halted."
      >
        {halts.map((halt) => (
          <tr key={halt.symbol}>
            <td>
              <code>{halt.symbol}</code>
            </td>
            <td>
              <Time iso={halt.startsAt?.toISOString()} empty="at once" />
            </td>
            <td>
              <Time iso={halt.endsAt?.toISOString()} empty="an ASSET_ENABLE notice" />
            </td>
            <td>{halt.noticeId}</td>
          </tr>
        ))}
      </Table>
      {mayAct(ctx.operator.role, 'TRADING_OPS') ? (
        <section aria-labelledby="publish-heading">
          <h2 id="publish-heading">Publish a notice</h2>
          <ul class="hint">
            <li>MAINTENANCE_ALERTS: tells every organisation; trading goes on.</li>
            <li>
              ASSET_DISABLE: halts trading in the pair from the start (at once when empty) until the end.
            </li>
            <li>ASSET_ENABLE: ends the pair&apos;s halt at the start (at once when empty).</li>
          </ul>
          <PostForm action="/console/notices" csrf={ctx.csrf} class="stacked" label="Publish a notice">
            <label for="notice-event">
              Kind
              <select id="notice-event" name="event" required>
                {SYSTEM_NOTICES.map((event) => (
                  <option key={event} value={event}>
                    {event}
                  </option>
                ))}
              </select>
            </label>
            <label for="notice-entity">
              About
              <span class="hint">For ASSET_ENABLE and ASSET_DISABLE the pair, e.g. BTC_EUR</span>
              <input id="notice-entity" name="entity" required maxLength={128} autocomplete="off" />
            </label>
            <label for="notice-message">
              Message
              <textarea id="notice-message" name="message" required maxLength={2000} rows={3} />
            </label>
            <label for="notice-start">
              Start
              <span class="hint">Optional, ISO 8601 with a zone, e.g. 2030-01-31T12:00:00Z</span>
              <input id="notice-start" name="startTime" autocomplete="off" />
            </label>
            <label for="notice-end">
              End
              <span class="hint">Optional, after the start</span>
              <input id="notice-end" name="endTime" autocomplete="off" />
            </label>
            <button type="submit">Publish</button>
          </PostForm>
        </section>
      ) : (
        <p class="muted">Publishing a notice needs the TRADING_OPS role.</p>
      )}
      <h2>Notices</h2>
      <ListTable
        pages={{ path: '/console/notices', cursor: props.cursor, nextCursor: notices.nextCursor }}
        caption="Published notices, oldest first"
        head={['Id', 'Kind', 'About', 'Message', 'Start', 'End', 'Published']}
        rows={notices.items.length}
        empty="No notice has been published."
      >
        {notices.items.map((notice) => (
          <tr key={notice.id}>
            <td>{notice.id}</td>
            <td>
              <Badge tone={notice.event === 'ASSET_DISABLE' ? 'bad' : 'neutral'}>{notice.event}</Badge>
            </td>
            <td>
              <code>{notice.entity}</code>
            </td>
            <td class="wrap">{notice.message}</td>
            <td>
              <Time iso={notice.startTime} empty="at once" />
            </td>
            <td>
              <Time iso={notice.endTime} empty="none" />
            </td>
            <td>
              <Time iso={notice.createdAt} />
            </td>
          </tr>
        ))}
      </ListTable>
    </ConsolePage>
  );
}
