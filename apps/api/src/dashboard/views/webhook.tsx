// Webhook settings: the endpoint, its health and its registration's status, the secret shown on demand (with the permission, audited),
// a change of URL or secret through the challenge, and a test event.
import type { AttemptResult } from '@svc/webhook-sender';

import { EVENT_CATALOGUE } from '../../event-log/event-catalogue.js';
import type { WebhookView } from '../../webhooks/webhook.view.js';
import { PostForm } from '../../web/components/forms.js';
import { Badge, CodeBlock, Facts, Notice, Time } from '../../web/components/ui.js';
import { healthFacts } from '../../web/components/webhook-health.js';
import type { DashboardContext } from '../dashboard-context.js';
import { DashboardPage } from './dashboard-page.js';

/**
 * The registration's status: whether events are sent to the endpoint at all, not whether they arrive (that is
 * its health), so ACTIVE is no green light.
 */
export function EndpointStatus(props: { readonly status: string }) {
  return props.status === 'ACTIVE' ? (
    <Badge tone="neutral">Active: its challenge passed</Badge>
  ) : (
    <Badge tone="bad">{props.status === 'CHALLENGE_FAILED' ? 'Challenge failed' : props.status}</Badge>
  );
}

/** What the page shows once a form was sent. */
export type WebhookOutcome =
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'secret'; readonly secret: string }
  | { readonly kind: 'changed'; readonly webhook: WebhookView }
  | {
      readonly kind: 'test';
      readonly key: string;
      readonly eventId: string;
      readonly body: string;
      readonly result: AttemptResult;
    };

export function WebhookPage(props: {
  readonly ctx: DashboardContext;
  readonly plan: string;
  readonly webhook: WebhookView | null;
  readonly outcome?: WebhookOutcome;
}) {
  const { ctx, webhook, outcome } = props;
  const can = (permission: 'MANAGE_WEBHOOKS' | 'REVEAL_SECRET') =>
    ctx.session.permissions.includes(permission);
  return (
    <DashboardPage ctx={ctx} title="Webhook" section="/dashboard/webhook">
      {outcome && <OutcomeNotice outcome={outcome} />}
      <section aria-labelledby="endpoint-heading">
        <h2 id="endpoint-heading">Endpoint</h2>
        {webhook ? (
          <Facts
            items={[
              ['URL', webhook.url],
              ...healthFacts(webhook.health),
              ['Registration', <EndpointStatus status={webhook.status} />],
              ...(webhook.challengeError
                ? ([['Why the challenge failed', webhook.challengeError]] as const)
                : []),
              ['Registered', <Time iso={webhook.createdAt} />],
              ['Changed', <Time iso={webhook.updatedAt} />],
            ]}
          />
        ) : (
          <p>No webhook is registered: events are not sent.</p>
        )}
      </section>
      {webhook && (
        <section aria-labelledby="secret-heading">
          <h2 id="secret-heading">Signing secret</h2>
          {outcome?.kind === 'secret' ? (
            <p>
              The secret is{' '}
              <code class="secret" data-testid="webhook-secret">
                {outcome.secret}
              </code>
            </p>
          ) : can('REVEAL_SECRET') ? (
            <PostForm action="/dashboard/webhook/reveal" csrf={ctx.csrf}>
              <p>Events are signed with this secret. Showing it is recorded in the audit log.</p>
              <button type="submit">Show the secret</button>
            </PostForm>
          ) : (
            <p class="muted">This session may not show the secret (it needs the REVEAL_SECRET permission).</p>
          )}
        </section>
      )}
      {props.plan !== 'ENTERPRISE' ? (
        <p>Webhooks are offered on the ENTERPRISE plan.</p>
      ) : can('MANAGE_WEBHOOKS') ? (
        <>
          <section aria-labelledby="change-heading">
            <h2 id="change-heading">{webhook ? 'Change the URL or the secret' : 'Register a webhook'}</h2>
            <PostForm action="/dashboard/webhook" csrf={ctx.csrf} class="stacked">
              <p class="muted">
                Saving sends the challenge to the URL at once; it must answer 200 with the challenge string.
              </p>
              <label>
                URL
                <input type="url" name="url" required value={webhook?.url ?? ''} autocomplete="off" />
              </label>
              <label>
                {webhook ? 'New secret' : 'Secret'}
                <span class="hint">
                  16 to 512 characters{webhook ? '; leave empty to keep the current one' : ''}
                </span>
                <input
                  type="password"
                  name="secret"
                  autocomplete="new-password"
                  minLength={16}
                  maxLength={512}
                  required={!webhook}
                />
              </label>
              <div>
                <button type="submit">Save and run the challenge</button>
              </div>
            </PostForm>
          </section>
          {webhook && (
            <section aria-labelledby="test-heading">
              <h2 id="test-heading">Send a test event</h2>
              <PostForm action="/dashboard/webhook/test" csrf={ctx.csrf} class="stacked">
                <p class="muted">
                  Sends the catalogue&apos;s example body, signed with the secret, once and at once. It is not
                  recorded as an event and is not retried.
                </p>
                <label>
                  Event
                  <select name="eventType">
                    {EVENT_CATALOGUE.map((entry) => (
                      <option
                        key={entry.key}
                        value={entry.key}
                        selected={outcome?.kind === 'test' && outcome.key === entry.key}
                      >
                        {entry.key}
                      </option>
                    ))}
                  </select>
                </label>
                <div>
                  <button type="submit">Send test event</button>
                </div>
              </PostForm>
            </section>
          )}
        </>
      ) : (
        <p class="muted">
          This session may not change the webhook (it needs the MANAGE_WEBHOOKS permission).
        </p>
      )}
    </DashboardPage>
  );
}

function OutcomeNotice(props: { readonly outcome: WebhookOutcome }) {
  const { outcome } = props;
  switch (outcome.kind) {
    case 'error':
      return <Notice kind="error">{outcome.message}</Notice>;
    case 'secret':
      return <Notice kind="info">The secret is shown below. This was recorded in the audit log.</Notice>;
    case 'changed':
      return outcome.webhook.challengePassed ? (
        <Notice kind="success">The challenge passed: events now go to {outcome.webhook.url}.</Notice>
      ) : (
        <Notice kind="error">
          The challenge failed: {outcome.webhook.challengeError ?? 'no reason given'}. Fix the receiver and
          save again.
        </Notice>
      );
    case 'test': {
      const { result } = outcome;
      return (
        <>
          <Notice kind={result.delivered ? 'success' : 'error'}>
            {result.delivered
              ? `The test event was delivered: HTTP 200 in ${result.durationMs} ms.`
              : `The test event was not delivered: ${result.statusCode === null ? (result.errorKind ?? 'error') : `HTTP ${result.statusCode}`} after ${result.durationMs} ms.`}
          </Notice>
          <details class="card">
            <summary>What was sent and answered</summary>
            <p>svc-event-id {outcome.eventId}</p>
            <CodeBlock label="Body sent" text={outcome.body} />
            <CodeBlock label="Answer (first bytes)" text={result.response || '(empty)'} />
          </details>
        </>
      );
    }
  }
}
