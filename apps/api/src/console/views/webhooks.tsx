// Webhook health: the endpoints (failing ones, or all), each with its FAILED events of the last 24 hours
// and its last failure, linked to the organisation; then the latest FAILED events of every organisation.
import type { Page } from '../../common/pagination.js';
import { ListTable } from '../../web/components/list-table.js';
import { Badge, Table, Time } from '../../web/components/ui.js';
import {
  type EndpointHealth,
  FAILED_COUNT_CAP,
  type RecentFailure,
} from '../../webhooks/webhook-health.repository.js';
import type { ConsoleContext } from '../../operators/console-context.js';
import { ConsolePage } from './console-page.js';

const SECTION = '/console/webhooks';

function EndpointState(props: { readonly endpoint: EndpointHealth }) {
  const { endpoint } = props;
  if (endpoint.status !== 'ACTIVE') return <Badge tone="bad">{endpoint.status}</Badge>;
  if (endpoint.pausedUntil && endpoint.pausedUntil > new Date()) return <Badge tone="warn">PAUSED</Badge>;
  return endpoint.failedLastDay > 0 ? <Badge tone="warn">FAILING</Badge> : <Badge tone="good">ACTIVE</Badge>;
}

export function WebhooksPage(props: {
  readonly ctx: ConsoleContext;
  readonly show: 'all' | 'failing';
  readonly cursor: string | undefined;
  readonly endpoints: Page<EndpointHealth>;
  readonly failures: readonly RecentFailure[];
}) {
  const { endpoints, show } = props;
  return (
    <ConsolePage ctx={props.ctx} title="Webhook health" section={SECTION}>
      <form method="get" action={SECTION} class="filters" aria-label="Which endpoints">
        <label>
          Show
          <select name="show">
            <option value="failing" selected={show === 'failing'}>
              failing endpoints
            </option>
            <option value="all" selected={show === 'all'}>
              every endpoint
            </option>
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
      <ListTable
        pages={{ path: SECTION, params: { show }, cursor: props.cursor, nextCursor: endpoints.nextCursor }}
        caption={
          show === 'failing'
            ? 'Failing webhook endpoints, by organisation'
            : 'Webhook endpoints, by organisation'
        }
        head={['Organisation', 'URL', 'State', 'FAILED (24 h)', 'Last failure']}
        numeric={['FAILED (24 h)']}
        rows={endpoints.items.length}
        empty={show === 'failing' ? 'No endpoint is failing.' : 'No organisation has a webhook.'}
      >
        {endpoints.items.map((endpoint) => (
          <tr key={endpoint.orgId}>
            <td>
              <a href={`/console/orgs/${endpoint.orgId}`}>{endpoint.orgName}</a>
            </td>
            <td class="wrap">
              <code>{endpoint.url}</code>
              {endpoint.challengeError && <span class="hint">{endpoint.challengeError}</span>}
            </td>
            <td>
              <EndpointState endpoint={endpoint} />
            </td>
            <td class="num">
              {endpoint.failedLastDay >= FAILED_COUNT_CAP ? `${FAILED_COUNT_CAP}+` : endpoint.failedLastDay}
            </td>
            <td>
              <Time iso={endpoint.lastFailureAt?.toISOString()} />
            </td>
          </tr>
        ))}
      </ListTable>
      <h2>Latest FAILED events</h2>
      <Table
        caption="Events that failed for good, newest first"
        head={['Failed', 'Organisation', 'Event', 'Entity', 'Retries']}
        numeric={['Retries']}
        rows={props.failures.length}
        empty="No event is FAILED."
      >
        {props.failures.map((failure) => (
          <tr key={failure.eventId}>
            <td>
              <Time iso={failure.failedAt.toISOString()} />
            </td>
            <td>
              <a href={`/console/orgs/${failure.orgId}`}>{failure.orgName}</a>
            </td>
            <td>
              <code>{failure.eventId}</code>
            </td>
            <td>{failure.entity}</td>
            <td class="num">{failure.numRetries}</td>
          </tr>
        ))}
      </Table>
    </ConsolePage>
  );
}
