import { InstantQuery } from './event-query-fields.js';

/** GET /api/v1/events/stream: where a new stream starts (a Last-Event-ID header takes precedence). */
export class StreamEventsQuery {
  @InstantQuery(
    'Start with the events created at or after this time, then follow new ones; ignored when a Last-Event-ID header is sent',
  )
  since?: string;
}
