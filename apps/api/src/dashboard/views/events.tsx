// The event log page: the organisation's events, newest first, with the api's filters (entity, KYC event
// type, delivery status, creation time), and recovery of failed events.
import { EVENT_STATUSES } from '@svc/db';
import { ENTITY_NAMES, KYC_EVENT_TYPES } from '@svc/protocol';

import type { LoggedEvent } from '../../event-log/event-log.repository.js';
import { eventDeliveryView } from '../../event-log/event.view.js';
import { ListTable } from '../../web/components/list-table.js';
import { ExportForm } from '../../web/components/export-form.js';
import { Badge, Notice, Time, type Tone } from '../../web/components/ui.js';
import { AttemptErrorText } from '../../web/components/webhook-health.js';
import type { DeliveryStateName } from '../../webhooks/delivery-state.js';
import type { RecoveryView } from '../../webhooks/recovery.view.js';
import type { DashboardContext } from '../dashboard-context.js';
import type { DashboardEventsQuery } from '../dto/dashboard-events.query.js';
import { DashboardPage } from './dashboard-page.js';
import { eventSubject } from './event-subject.js';
import { RecoverForm, RecoveryFacts } from './recovery.js';

const TONES: Readonly<Record<DeliveryStateName, Tone>> = {
  DELIVERED: 'good',
  PENDING: 'neutral',
  RETRYING: 'warn',
  FAILED: 'bad',
  SKIPPED: 'neutral',
};

/** The event's entity and, for a KYC event, its type: "Users KYC_RFI". */
export function eventName(event: Pick<LoggedEvent, 'entity' | 'eventType'>): string {
  return event.eventType ? `${event.entity} ${event.eventType}` : event.entity;
}

/** Where an event's delivery stands, and when retrying, when the next attempt is due and why the last failed. */
export function DeliveryStatus(props: { readonly event: LoggedEvent; readonly long?: boolean }) {
  const delivery = eventDeliveryView(props.event);
  return (
    <>
      <Badge tone={TONES[delivery.state]}>{delivery.state}</Badge>
      {delivery.state === 'RETRYING' && (
        <span class="hint">
          next attempt <Time iso={delivery.nextAttemptAt} />
          {delivery.lastError && (
            <>
              ; last error <AttemptErrorText error={delivery.lastError} preview={props.long ? 200 : 40} />
            </>
          )}
        </span>
      )}
    </>
  );
}

function Choice(props: {
  readonly name: string;
  readonly label: string;
  readonly values: readonly string[];
  readonly value: string | undefined;
}) {
  return (
    <label>
      {props.label}
      <select name={props.name}>
        <option value="">any</option>
        {props.values.map((value) => (
          <option key={value} value={value} selected={props.value === value}>
            {value}
          </option>
        ))}
      </select>
    </label>
  );
}

export function EventsPage(props: {
  readonly ctx: DashboardContext;
  readonly query: DashboardEventsQuery;
  readonly events: readonly LoggedEvent[];
  readonly nextCursor: string | null;
  readonly latestRecovery: RecoveryView | null;
  readonly defaultSince: string;
  readonly error?: string | undefined;
}) {
  const { query } = props;
  const filters = {
    entity: query.entity,
    eventType: query.eventType,
    status: query.status,
    since: query.since,
    until: query.until,
    orgUserId: query.orgUserId,
    orderId: query.orderId,
  };
  return (
    <DashboardPage ctx={props.ctx} title="Events" section="/dashboard/events">
      {props.error && <Notice kind="error">{props.error}</Notice>}
      <form method="get" action="/dashboard/events" class="filters" aria-label="Filter events">
        <Choice name="entity" label="Entity" values={ENTITY_NAMES} value={query.entity} />
        <Choice name="eventType" label="Event type" values={KYC_EVENT_TYPES} value={query.eventType} />
        <Choice name="status" label="Delivery status" values={EVENT_STATUSES} value={query.status} />
        <label>
          Created since
          <input type="text" name="since" value={query.since ?? ''} placeholder="2030-01-31T00:00:00Z" />
        </label>
        <label>
          Created before
          <input type="text" name="until" value={query.until ?? ''} placeholder="2030-02-01T00:00:00Z" />
        </label>
        <label>
          orgUserId
          <input type="text" name="orgUserId" value={query.orgUserId ?? ''} maxLength={128} />
        </label>
        <label>
          Order id
          <input type="text" name="orderId" value={query.orderId ?? ''} inputMode="numeric" maxLength={19} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <ListTable
        pages={{
          path: '/dashboard/events',
          params: filters,
          cursor: query.cursor,
          nextCursor: props.nextCursor,
        }}
        caption="Events, newest first"
        head={['Concerns', 'Event', 'Delivery', 'Created', 'Id']}
        rows={props.events.length}
        empty="No event matches."
      >
        {props.events.map((event) => (
          <tr key={event.id}>
            <td class="wrap">
              <a href={`/dashboard/events/${event.id}`}>{eventSubject(event.entity, event.data).text}</a>
            </td>
            <td>{eventName(event)}</td>
            <td>
              <DeliveryStatus event={event} />
            </td>
            <td>
              <Time iso={event.createdAt.toISOString()} />
            </td>
            <td>
              <a class="id" href={`/dashboard/events/${event.id}`}>
                {event.id}
              </a>
            </td>
          </tr>
        ))}
      </ListTable>
      <section aria-labelledby="recover-heading">
        <h2 id="recover-heading">Recover failed events</h2>
        <p>
          Redelivers, once each, every FAILED event created since a time and still inside its 24-hour delivery
          window, to the active webhook.
        </p>
        <RecoverForm ctx={props.ctx} since={props.defaultSince} />
        {props.latestRecovery && (
          <>
            <h3>
              <a href={`/dashboard/events/recoveries/${props.latestRecovery.id}`}>The latest recovery</a>
            </h3>
            <RecoveryFacts recovery={props.latestRecovery} />
          </>
        )}
      </section>
      <ExportForm action="/dashboard/events/export.csv" what="events" />
    </DashboardPage>
  );
}
