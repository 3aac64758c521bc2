// The overview: the organisation, its plan, policy and limits, how its webhook has fared lately (counts and
// charts of the attempts), and its orders per day.
import type { Deliveries, OrdersPerDay } from '../../activity/activity.service.js';
import type { OrgView } from '../../orgs/org.view.js';
import { DeliveryCharts, OrderCharts } from '../../web/components/activity-charts.js';
import { PostForm } from '../../web/components/forms.js';
import { AmountMap, Badge, Facts, Notice, Rate, Table, Time } from '../../web/components/ui.js';
import type { WebhookHealth } from '../../webhooks/webhook-health.repository.js';
import type { HealthView } from '../../webhooks/webhook.view.js';
import { healthFacts } from '../../web/components/webhook-health.js';
import type { DashboardContext } from '../dashboard-context.js';
import { DashboardPage, PageLink } from './dashboard-page.js';
import { EndpointStatus } from './webhook.js';

const LIMITS = [
  ['quoteLimit', 'Per order (quote amount)'],
  ['totalLimit', 'Per day (quote amount)'],
  ['totalExposure', 'All positions (quote value)'],
  ['assetExposure', 'One asset (quote value)'],
] as const;

const EVENT_STATUSES = ['DELIVERED', 'PENDING', 'FAILED', 'SKIPPED'] as const;

export function OverviewPage(props: {
  readonly ctx: DashboardContext;
  readonly org: OrgView;
  readonly health: WebhookHealth;
  readonly endpointHealth: HealthView;
  /** Attempts per hour and day. */
  readonly deliveries: Deliveries;
  /** Orders per day; null when the session may not see the orders page. */
  readonly orders: OrdersPerDay | null;
  readonly notice?: string | undefined;
}) {
  const { org, health, ctx } = props;
  const policy = org.policy;
  const limitRows = LIMITS.filter(([field]) => Object.keys(policy[field]).length > 0);
  return (
    <DashboardPage ctx={ctx} title="Overview" section="/dashboard/">
      {props.notice && <Notice kind="success">{props.notice}</Notice>}
      <section aria-labelledby="org-heading">
        <h2 id="org-heading">Organisation</h2>
        <Facts
          items={[
            ['Name', org.name],
            ['Organisation id', String(org.orgId)],
            ['Plan', org.plan],
            ['KYC domain', org.kycDomain],
            ['Support e-mail', org.supportEmails.length > 0 ? org.supportEmails.join(', ') : 'none'],
            ['Created', <Time iso={org.createdAt} />],
          ]}
        />
      </section>
      <section aria-labelledby="webhook-heading">
        <h2 id="webhook-heading">Webhook health</h2>
        {org.webhook ? (
          <Facts
            items={[
              ['Endpoint', <span class="wrap">{org.webhook.url}</span>],
              ...healthFacts(props.endpointHealth),
              ['Registration', <EndpointStatus status={org.webhook.status} />],
              ['Last delivered', <Time iso={health.lastDeliveredAt?.toISOString()} />],
              ['Last failed attempt', <Time iso={health.lastFailedAt?.toISOString()} />],
            ]}
          />
        ) : (
          <p>
            No webhook is registered: events are not sent.{' '}
            <PageLink ctx={ctx} page="WEBHOOK" href="/dashboard/webhook">
              Set one up
            </PageLink>
            .
          </p>
        )}
        <Table
          caption={`Events and delivery attempts in the last ${health.hours} hours`}
          head={['Outcome', 'Count']}
          numeric={['Count']}
          rows={EVENT_STATUSES.length + 2}
        >
          {EVENT_STATUSES.map((status) => (
            <tr key={status}>
              <td>Events {status.toLowerCase()}</td>
              <td class="num">{health.events[status] ?? 0}</td>
            </tr>
          ))}
          <tr>
            <td>Attempts delivered</td>
            <td class="num">{health.attempts.delivered}</td>
          </tr>
          <tr>
            <td>Attempts failed</td>
            <td class="num">
              {health.attempts.failed > 0 ? <Badge tone="bad">{health.attempts.failed}</Badge> : 0}
            </td>
          </tr>
        </Table>
        <DeliveryCharts deliveries={props.deliveries} who="the organisation" />
      </section>
      {props.orders && (
        <section aria-labelledby="orders-heading">
          <h2 id="orders-heading">Orders</h2>
          <p>
            Orders by the day they were placed.{' '}
            <PageLink ctx={ctx} page="ORDERS" href="/dashboard/orders">
              Every order
            </PageLink>
            .
          </p>
          <OrderCharts orders={props.orders} who="the organisation" />
        </section>
      )}
      <section aria-labelledby="policy-heading">
        <h2 id="policy-heading">Policy and limits</h2>
        <Facts
          items={[
            ['Assets enabled', policy.enabledAssets.length > 0 ? policy.enabledAssets.join(', ') : 'none'],
            ['Commission rate', <Rate value={policy.commissionRate} />],
            ['VAT rate', <Rate value={policy.vatRate} />],
          ]}
        />
        <Table
          caption="Limits by currency or asset"
          head={['Limit', 'Values']}
          rows={limitRows.length}
          empty="No limits are set."
        >
          {limitRows.map(([field, label]) => (
            <tr key={field}>
              <th scope="row">{label}</th>
              <td class="wrap">
                <AmountMap amounts={policy[field]} />
              </td>
            </tr>
          ))}
        </Table>
      </section>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Dashboard sessions</h2>
        <p>
          This session ends at <Time iso={ctx.session.expiresAt.toISOString()} />. Signing everyone out ends
          every session of the organisation, this one too, and voids the links not opened yet.
        </p>
        {ctx.session.permissions.includes('MANAGE_CREDENTIALS') && (
          <PostForm
            action="/dashboard/sign-out-everyone"
            csrf={ctx.csrf}
            confirm="Sign everyone out of this organisation's dashboard?"
          >
            <button type="submit" class="button-danger">
              Sign everyone out
            </button>
          </PostForm>
        )}
      </section>
    </DashboardPage>
  );
}
