// Recovery of failed events (docs/dashboard.md#events): the form that starts one, and how far one got.
import { PostForm } from '../../web/components/forms.js';
import { Badge, Facts, Notice, Time } from '../../web/components/ui.js';
import type { RecoveryView } from '../../webhooks/recovery.view.js';
import type { DashboardContext } from '../dashboard-context.js';
import { DashboardPage } from './dashboard-page.js';

/** Whether the session may redeliver and recover (MANAGE_WEBHOOKS). */
export const mayManageWebhooks = (ctx: DashboardContext): boolean =>
  ctx.session.permissions.includes('MANAGE_WEBHOOKS');

export function RecoverForm(props: { readonly ctx: DashboardContext; readonly since: string }) {
  if (!mayManageWebhooks(props.ctx)) {
    return (
      <p class="muted">
        This session may only read: recovering failed events needs the MANAGE_WEBHOOKS permission.
      </p>
    );
  }
  return (
    <PostForm
      action="/dashboard/events/recover"
      csrf={props.ctx.csrf}
      class="filters"
      label="Recover failed events"
      confirm="Redeliver every failed event since this time, once each?"
    >
      <label>
        Since
        <input type="text" name="since" value={props.since} required maxLength={40} />
        <span class="hint">ISO 8601 with a zone (UTC shown), within the last 24 hours</span>
      </label>
      <button type="submit">Recover failed events</button>
    </PostForm>
  );
}

export function RecoveryFacts(props: { readonly recovery: RecoveryView }) {
  const { recovery } = props;
  return (
    <Facts
      items={[
        ['Status', <Badge tone={recovery.status === 'COMPLETED' ? 'good' : 'warn'}>{recovery.status}</Badge>],
        ['Failed events since', <Time iso={recovery.since} />],
        ['Events chosen', String(recovery.total)],
        ['Waiting for their attempt', String(recovery.queued)],
        ['Delivered', String(recovery.delivered)],
        ['Failed again', String(recovery.failed)],
        ['Asked for', <Time iso={recovery.createdAt} />],
        ['Completed', <Time iso={recovery.completedAt} empty="not yet" />],
      ]}
    />
  );
}

export function RecoveryPage(props: { readonly ctx: DashboardContext; readonly recovery: RecoveryView }) {
  const { recovery } = props;
  return (
    <DashboardPage ctx={props.ctx} title="Recovery of failed events" section="/dashboard/events">
      {recovery.status !== 'COMPLETED' && (
        <Notice kind="info">
          The worker redelivers the chosen events in the background; reload this page to follow it.
        </Notice>
      )}
      <section aria-labelledby="recovery-heading">
        <h2 id="recovery-heading">Recovery {recovery.id}</h2>
        <RecoveryFacts recovery={recovery} />
        <p>
          <a href={`/dashboard/events/recoveries/${recovery.id}`}>Reload</a> ·{' '}
          <a href={`/dashboard/events?status=FAILED`}>Events still failed</a>
        </p>
      </section>
    </DashboardPage>
  );
}
