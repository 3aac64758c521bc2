// The audit log: a filter form (GET, so a filtered view is a link to share) and the entries, newest first,
// each naming the operator who acted and the organisation it was about, with its details folded: a one-line
// summary, opened to the whole record pretty-printed.
import type { AuditView } from '../../audit/audit.view.js';
import type { ListAuditQuery } from '../../audit/dto/list-audit.query.js';
import type { Page } from '../../common/pagination.js';
import { ListTable } from '../../web/components/list-table.js';
import { ExportForm } from '../../web/components/export-form.js';
import { hrefWith, Time } from '../../web/components/ui.js';
import { jsonPreview } from '../../web/format.js';
import type { ConsoleContext } from '../../operators/console-context.js';
import { ConsolePage } from './console-page.js';

/** An entry's details: folded to a one-line summary, the whole record pretty-printed when opened. */
export function AuditDetails(props: { readonly details: object }) {
  return (
    <details>
      <summary>
        <code>{jsonPreview(props.details, 60)}</code>
      </summary>
      <pre>
        <code>{JSON.stringify(props.details, null, 2)}</code>
      </pre>
    </details>
  );
}

export function AuditPage(props: {
  readonly ctx: ConsoleContext;
  readonly query: ListAuditQuery;
  readonly entries: Page<AuditView>;
}) {
  const { query, entries } = props;
  const filters = {
    operatorEmail: query.operatorEmail,
    operatorId: query.operatorId,
    orgId: query.orgId === undefined ? undefined : String(query.orgId),
    action: query.action,
    from: query.from,
    to: query.to,
    limit: query.limit === undefined ? undefined : String(query.limit),
  };
  return (
    <ConsolePage ctx={props.ctx} title="Audit log" section="/console/audit">
      <form
        method="get"
        action="/console/audit"
        class="filters"
        role="search"
        aria-label="Filter the audit log"
      >
        <label>
          Operator e-mail
          <input
            type="email"
            name="operatorEmail"
            value={query.operatorEmail ?? ''}
            maxLength={254}
            autocomplete="off"
          />
        </label>
        {/* A link from elsewhere may name the operator by id; the form keeps it. */}
        {query.operatorId && <input type="hidden" name="operatorId" value={query.operatorId} />}
        <label>
          Organisation id
          <input name="orgId" value={filters.orgId ?? ''} inputMode="numeric" autocomplete="off" />
        </label>
        <label>
          Action
          <input name="action" value={query.action ?? ''} placeholder="org.create" autocomplete="off" />
        </label>
        <label>
          From
          <input name="from" value={query.from ?? ''} placeholder="2030-01-31T00:00:00Z" autocomplete="off" />
        </label>
        <label>
          Before
          <input name="to" value={query.to ?? ''} placeholder="2030-02-01T00:00:00Z" autocomplete="off" />
        </label>
        <button type="submit">Filter</button>
      </form>
      <ListTable
        pages={{
          path: '/console/audit',
          params: filters,
          cursor: query.cursor,
          nextCursor: entries.nextCursor,
        }}
        caption="Audit entries, newest first"
        head={['When', 'Operator', 'Action', 'Organisation', 'Details']}
        rows={entries.items.length}
        empty="No entry matches."
      >
        {entries.items.map((entry) => (
          <tr key={entry.id}>
            <td>
              <Time iso={entry.createdAt} />
            </td>
            <td>
              {entry.operatorId ? (
                <a href={hrefWith('/console/audit', { operatorEmail: entry.actor })}>{entry.actor}</a>
              ) : (
                entry.actor
              )}
            </td>
            <td>
              <code>{entry.action}</code>
            </td>
            <td>
              {entry.orgId === null ? (
                <span class="muted">none</span>
              ) : (
                <a href={`/console/orgs/${entry.orgId}`}>{entry.orgId}</a>
              )}
            </td>
            <td class="record">
              <AuditDetails details={entry.details} />
            </td>
          </tr>
        ))}
      </ListTable>
      <ExportForm action="/console/audit/export.csv" what="the audit log" />
    </ConsolePage>
  );
}
