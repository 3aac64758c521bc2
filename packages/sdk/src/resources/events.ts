// The client's `events` group: the organisation's event log (docs: the API guide, "Event log and stream").
import { PageRequest } from '../pagination.js';
import type { RequestOptions } from '../transport.js';
import type { EventLogEntry, ListEventsParams, Page, PageParams } from '../types.js';
import { path, pick, requireId, type Call } from './call.js';

export class EventsResource {
  constructor(private readonly call: Call) {}

  /** One page when awaited; every event when iterated with `for await`. Oldest first. */
  list(params: ListEventsParams = {}, options?: RequestOptions): PageRequest<EventLogEntry> {
    return new PageRequest(
      (page: PageParams) =>
        this.call<Page<EventLogEntry>>(
          {
            method: 'GET',
            path: path('events'),
            query: {
              entity: params.entity,
              eventType: params.eventType,
              status: params.status,
              since: instant(params.since),
              until: instant(params.until),
              limit: page.limit,
              cursor: page.cursor,
            },
            idempotent: true,
          },
          options,
        ),
      pick(params),
    );
  }

  /** One event of the organisation, by its id (the svc-event-id header of its deliveries). */
  get(id: string, options?: RequestOptions): Promise<EventLogEntry> {
    return this.call({ method: 'GET', path: path('events', requireId('id', id)), idempotent: true }, options);
  }
}

function instant(value: Date | string | undefined): string | undefined {
  return value instanceof Date ? value.toISOString() : value;
}
