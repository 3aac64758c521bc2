// The event log's answers and the stream's frames, written as text: an event's body is the text
// eventBodyText builds, the one the webhook carries, spliced in as it is (a parse and a stringify could
// reorder keys such as "10" and would round amounts beyond a double's digits).
import { eventBodyText } from '@svc/protocol';

import type { Page } from '../common/pagination.js';
import { deliveryState } from '../webhooks/delivery-state.js';
import type { EventLogRow, LoggedEvent } from './event-log.repository.js';

/**
 * The event's body as its first delivery carried it (`numRetries` 0, `updatedAt` its `createdAt`), which is
 * also what the stream sends as it commits; a redelivery differs only in those two envelope fields.
 */
export function eventBody(row: EventLogRow): string {
  return eventBodyText(
    {
      orgId: row.orgId,
      entity: row.entity,
      eventType: row.eventType,
      numRetries: 0,
      createdAt: row.createdAt,
      updatedAt: row.createdAt,
    },
    row.data,
  );
}

/** Where the event's delivery stands (webhooks/delivery-state.ts), with a retrying event's last error. */
export function eventDeliveryView(row: LoggedEvent) {
  const { state, nextAttemptAt } = deliveryState(row);
  const error = row.lastError;
  return {
    state,
    nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
    lastError: error && {
      at: error.at.toISOString(),
      errorKind: error.errorKind,
      statusCode: error.statusCode,
      response: error.response,
    },
  };
}

/** One entry of the log: `{"id":…,"status":…,"delivery":{…},"body":{"event":…,"data":…}}`. */
export function eventEntryText(row: LoggedEvent): string {
  const delivery = JSON.stringify(eventDeliveryView(row));
  return `{"id":${JSON.stringify(row.id)},"status":${JSON.stringify(row.status)},"delivery":${delivery},"body":${eventBody(row)}}`;
}

/** A page of the log: `{"items":[…],"nextCursor":…}`. */
export function eventPageText(page: Page<LoggedEvent>): string {
  return `{"items":[${page.items.map(eventEntryText).join(',')}],"nextCursor":${JSON.stringify(page.nextCursor)}}`;
}

/**
 * One Server-Sent Events message: the event's id, and its body on one data line. (Stored JSON never holds a
 * line break, JSON.stringify writes none; were one there, each line would get its own `data:` field, which
 * the client joins back with a line feed.)
 */
export function streamFrame(row: EventLogRow): string {
  const data = eventBody(row)
    .split(/\r\n|\r|\n/)
    .join('\ndata: ');
  return `id: ${row.id}\ndata: ${data}\n\n`;
}
