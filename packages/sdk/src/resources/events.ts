// The client's `events` group: the organisation's event log (docs: the API guide, "Event log and stream").
import { PageRequest } from '../pagination.js';
import type { RequestOptions, Transport } from '../transport.js';
import type { EventLogEntry, ListEventsParams, Page, PageParams } from '../types.js';
import { path, pick, requireId, type Call } from './call.js';
import { type EventStreamOptions, EventStreamResource, type StreamedEvent } from './event-stream.js';

export class EventsResource {
  private readonly streams: EventStreamResource;

  constructor(
    private readonly call: Call,
    transport: Transport,
  ) {
    this.streams = new EventStreamResource(transport);
  }

  /**
   * The organisation's events as they commit (GET /api/v1/events/stream), reconnecting and resuming by
   * itself; see {@link EventStreamResource.stream}.
   */
  stream(options: EventStreamOptions = {}): AsyncIterableIterator<StreamedEvent> {
    return this.streams.stream(options);
  }

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
