// Webhook health: the endpoints (those not HEALTHY, or all), each with its health word (the one its
// organisation's dashboard shows), its FAILED events of the last 24 hours and its last error, linked to the
// organisation; then the latest FAILED events of every organisation.
import type { Page } from '../../common/pagination.js';
import { ListTable } from '../../web/components/list-table.js';
import { Badge, Table, Time } from '../../web/components/ui.js';
import { AttemptErrorText, HealthBadge } from '../../web/components/webhook-health.js';
import { FAILED_COUNT_CAP, type RecentFailure } from '../../webhooks/webhook-health.repository.js';
import type { EndpointOnList } from '../../webhooks/webhook-health.service.js';
import { healthView } from '../../webhooks/webhook.view.js';
import type { ConsoleContext } from '../../operators/console-context.js';
import { ConsolePage } from './console-page.js';

const SECTION = '/console/webhooks';

function EndpointRow(props: { readonly endpoint: EndpointOnList }) {
  const { endpoint } = props;
  const health = healthView(endpoint.health);
  return (
    <tr>
      <td>
        <a href={`/console/orgs/${endpoint.orgId}`}>{endpoint.orgName}</a>
      </td>
      <td class="wrap">
        <code>{endpoint.url}</code>
        {endpoint.endpointStatus !== 'ACTIVE' && (
          <Badge tone="bad">{endpoint.endpointStatus ?? 'none'}</Badge>
        )}
        {endpoint.challengeError && <span class="hint">{endpoint.challengeError}</span>}
      </td>
      <td>
        <HealthBadge state={health.state} />
        <span class="hint">{health.reason}</span>
      </td>
      <td class="num">
        {endpoint.failedEvents >= FAILED_COUNT_CAP ? `${FAILED_COUNT_CAP}+` : endpoint.failedEvents}
      </td>
      <td>
        {health.lastError ? (
          <AttemptErrorText error={health.lastError} preview={60} />
        ) : (
          <span class="muted">none</span>
        )}
      </td>
      <td>
        <Time iso={endpoint.lastFailureAt?.toISOString()} />
      </td>
    </tr>
  );
}

export function WebhooksPage(props: {
  readonly ctx: ConsoleContext;
  readonly show: 'all' | 'unhealthy';
  readonly cursor: string | undefined;
  readonly endpoints: Page<EndpointOnList>;
  readonly failures: readonly RecentFailure[];
}) {
  const { endpoints, show } = props;
  return (
    <ConsolePage ctx={props.ctx} title="Webhook health" section={SECTION}>
      <form method="get" action={SECTION} class="filters" aria-label="Which endpoints">
        <label>
          Show
          <select name="show">
            <option value="unhealthy" selected={show === 'unhealthy'}>
              endpoints not healthy
            </option>
            <option value="all" selected={show === 'all'}>
              every endpoint
            </option>
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
      <p class="muted">
        Healthy, Degraded, Failing or No endpoint: the same word the organisation&apos;s dashboard and GET
        /api/v1/webhooks/ show, from the endpoint&apos;s latest attempts.
      </p>
      <ListTable
        pages={{ path: SECTION, params: { show }, cursor: props.cursor, nextCursor: endpoints.nextCursor }}
        caption={
          show === 'unhealthy'
            ? 'Webhook endpoints not healthy, by organisation'
            : 'Webhook endpoints, by organisation'
        }
        head={['Organisation', 'URL', 'Health', 'FAILED (24 h)', 'Last error', 'Last failed event']}
        numeric={['FAILED (24 h)']}
        rows={endpoints.items.length}
        empty={show === 'unhealthy' ? 'No endpoint is unhealthy here.' : 'No organisation has a webhook.'}
      >
        {endpoints.items.map((endpoint) => (
          <EndpointRow key={endpoint.orgId} endpoint={endpoint} />
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
