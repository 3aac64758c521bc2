// One event: what it is, its body as delivered, every delivery attempt with the request the receiver got
// and the first bytes of its answer, and the Redeliver (Retry now while retrying) and Recover actions.
import type { WebhookAttempt } from '@svc/db';

import { eventBody } from '../../event-log/event.view.js';
import type { LoggedEvent } from '../../event-log/event-log.repository.js';
import { PostForm } from '../../web/components/forms.js';
import { deliveryState } from '../../webhooks/delivery-state.js';
import { ListTable } from '../../web/components/list-table.js';
import { Badge, CodeBlock, Facts, Notice, Time } from '../../web/components/ui.js';
import type { DashboardContext } from '../dashboard-context.js';
import type { AttemptRequest } from '../event-requests.js';
import { DashboardPage } from './dashboard-page.js';
import { eventSubject } from './event-subject.js';
import { DeliveryStatus } from './events.js';
import { mayManageWebhooks, RecoverForm } from './recovery.js';

export interface ShownAttempt {
  readonly attempt: WebhookAttempt;
  readonly request: AttemptRequest;
}

/** How many characters of an answer the table shows; the whole stored excerpt is under "Request and answer". */
const ANSWER_PREVIEW = 80;

function Outcome(props: { readonly attempt: WebhookAttempt }) {
  const { attempt } = props;
  if (attempt.delivered) return <Badge tone="good">{`HTTP ${attempt.statusCode ?? ''}`}</Badge>;
  const text = attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : (attempt.errorKind ?? 'failed');
  return <Badge tone="bad">{text}</Badge>;
}

const attemptName = (attempt: WebhookAttempt): string =>
  `${attempt.manual ? 'redelivery' : 'scheduled'}, numRetries ${attempt.numRetries}`;

function AttemptDetails(props: { readonly shown: ShownAttempt }) {
  const { attempt, request } = props.shown;
  const when = attempt.attemptedAt.toISOString();
  const headers = request.headers.map(([name, value]) => `${name}: ${value}`).join('\n');
  return (
    <details class="card" data-attempt={attempt.id}>
      <summary>
        Request and answer of the attempt at <Time iso={when} /> ({attemptName(attempt)})
      </summary>
      <p>
        POST <span class="wrap">{attempt.url}</span>
      </p>
      {request.body === null ? (
        <p class="muted">{request.signatureNote}</p>
      ) : (
        <>
          <h4>Headers</h4>
          <CodeBlock label={`Headers sent at ${when}`} text={headers} wrap />
          {request.signatureNote && <p class="muted">{request.signatureNote}</p>}
          <h4>Body</h4>
          <CodeBlock label={`Body sent at ${when}`} text={request.body} wrap />
        </>
      )}
      <h4>Answer (first bytes)</h4>
      <CodeBlock label={`Answer to the attempt at ${when}`} text={attempt.response || '(empty)'} wrap />
    </details>
  );
}

export function EventPage(props: {
  readonly ctx: DashboardContext;
  readonly event: LoggedEvent;
  readonly attempts: readonly ShownAttempt[];
  readonly nextCursor: string | null;
  readonly cursor: string | undefined;
  readonly windowEndsAt: Date;
  readonly done?: 'redelivered' | 'retried';
  readonly error?: string;
}) {
  const { ctx, event } = props;
  const path = `/dashboard/events/${event.id}`;
  const open = props.windowEndsAt.getTime() > Date.now();
  const retrying = deliveryState(event).state === 'RETRYING';
  return (
    <DashboardPage ctx={ctx} title={`Event ${event.id}`} section="/dashboard/events">
      {props.done && (
        <Notice kind="success">
          {props.done === 'retried'
            ? 'Its next retry is made now instead of at its scheduled time: the attempt appears below once the worker has made it (reload).'
            : 'The event is queued for redelivery: its attempt appears below once the worker has made it (reload).'}
        </Notice>
      )}
      {props.error && <Notice kind="error">{props.error}</Notice>}
      <section aria-labelledby="event-heading">
        <h2 id="event-heading">The event</h2>
        <Facts
          items={[
            ['Concerns', eventSubject(event.entity, event.data).text],
            ['Entity', event.entity],
            ['Event type', event.eventType ?? 'none'],
            ['Delivery', <DeliveryStatus event={event} long />],
            ['Created', <Time iso={event.createdAt.toISOString()} />],
            [
              'Delivery window',
              <>
                {open ? 'open until ' : 'closed at '}
                <Time iso={props.windowEndsAt.toISOString()} />
              </>,
            ],
          ]}
        />
        <h3>Body</h3>
        <p>
          Exactly as its first delivery carried it (and as GET /api/v1/events/{'{id}'} answers it); each
          attempt below shows its own, whose numRetries and updatedAt move on.
        </p>
        <CodeBlock label="The event's body" text={eventBody(event)} wrap />
      </section>
      <section aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Deliveries</h2>
        <ListTable
          pages={{ path, cursor: props.cursor, nextCursor: props.nextCursor }}
          caption="Delivery attempts, oldest first"
          head={['Attempted', 'Attempt', 'Duration', 'Result', 'Answer']}
          numeric={['Duration']}
          rows={props.attempts.length}
          empty={
            event.status === 'SKIPPED'
              ? 'No attempt: no webhook was active when the event was made.'
              : 'No attempt yet.'
          }
        >
          {props.attempts.map(({ attempt }) => (
            <tr key={attempt.id}>
              <td>
                <Time iso={attempt.attemptedAt.toISOString()} />
              </td>
              <td>{attemptName(attempt)}</td>
              <td class="num">{`${attempt.durationMs} ms`}</td>
              <td>
                <Outcome attempt={attempt} />
              </td>
              <td class="wrap answer">
                {attempt.response.length > ANSWER_PREVIEW
                  ? `${attempt.response.slice(0, ANSWER_PREVIEW)}…`
                  : attempt.response}
              </td>
            </tr>
          ))}
        </ListTable>
        {props.attempts.map((shown) => (
          <AttemptDetails key={shown.attempt.id} shown={shown} />
        ))}
      </section>
      <section aria-labelledby="actions-heading">
        <h2 id="actions-heading">{retrying ? 'Retry now' : 'Redeliver'}</h2>
        {mayManageWebhooks(ctx) ? (
          <>
            {retrying ? (
              <>
                <p>
                  Makes the scheduled retry now instead of at its time: one attempt, counted in numRetries
                  like any redelivery. If it fails, the retries go on from it as from any failed retry; the
                  event never gets this attempt and the scheduled one too.
                </p>
                <PostForm action={`${path}/retry-now`} csrf={ctx.csrf} class="actions" label="Retry now">
                  <button type="submit">Retry now</button>
                </PostForm>
              </>
            ) : (
              <>
                <p>
                  Sends the event once more to the active webhook, once its first attempt is made and inside
                  its 24-hour window; receivers drop repeats by svc-event-id.
                </p>
                <PostForm action={`${path}/redeliver`} csrf={ctx.csrf} class="actions" label="Redeliver">
                  <button type="submit">Redeliver this event</button>
                </PostForm>
              </>
            )}
            <h3>Recover failed events</h3>
            <RecoverForm ctx={ctx} since={event.createdAt.toISOString()} />
          </>
        ) : (
          <p class="muted">
            This session may only read: redelivering and recovering events need the MANAGE_WEBHOOKS
            permission.
          </p>
        )}
      </section>
    </DashboardPage>
  );
}
