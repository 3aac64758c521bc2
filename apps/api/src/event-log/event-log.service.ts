// The organisation's event log (docs/api-guide.md#event-log-and-stream): its events, oldest first, each with
// its delivery status and exactly the body the webhook carries.
import { Injectable } from '@nestjs/common';

import { csvChunks } from '../common/csv.js';
import { notFound } from '../common/errors.js';
import type { TimeRange } from '../common/export-range.js';
import { keysetBatches, mapBatches } from '../common/keyset-batches.js';
import {
  type CursorKey,
  decodeCursor,
  DEFAULT_PAGE_SIZE,
  type Page,
  type PageOrder,
  toPage,
} from '../common/pagination.js';
import { parseInstant } from '../common/instant.js';
import type { ListEventsQuery } from './dto/list-events.query.js';
import { EventLogRepository, type LogFilter, type LogKey, type LoggedEvent } from './event-log.repository.js';
import { EVENT_CSV_HEADER, eventCsvRow } from './event-csv.js';
import { eventEntryText, eventPageText } from './event.view.js';

/** Rows per statement of an export. */
const EXPORT_BATCH = 2000;

/** The log's cursor: the last item's creation time (ms) and position, `1795500000000_42`. */
const LOG_KEY: CursorKey<LogKey> = {
  parse(text) {
    const match = /^([0-9]{1,15})_([0-9]{1,19})$/.exec(text);
    if (!match?.[1] || !match[2]) return undefined;
    return { createdAt: new Date(Number(match[1])), position: BigInt(match[2]) };
  },
  format: (key) => `${key.createdAt.getTime()}_${key.position}`,
};

@Injectable()
export class EventLogService {
  constructor(private readonly events: EventLogRepository) {}

  /** A page of the log, as the JSON text of `data`. */
  async list(orgId: number, query: ListEventsQuery): Promise<string> {
    return eventPageText(await this.page(orgId, query));
  }

  /** A page of the log's rows, oldest first (the api) or newest first (the dashboard). */
  async page(
    orgId: number,
    query: ListEventsQuery & Pick<LogFilter, 'orgUserId' | 'orderId'>,
    order: PageOrder = 'oldest-first',
  ): Promise<Page<LoggedEvent>> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const after = decodeCursor(query.cursor, LOG_KEY);
    const filter = {
      ...(query.entity ? { entity: query.entity } : {}),
      ...(query.eventType ? { eventType: query.eventType } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.since ? { since: parseInstant(query.since) } : {}),
      ...(query.until ? { until: parseInstant(query.until) } : {}),
      ...(query.orgUserId ? { orgUserId: query.orgUserId } : {}),
      ...(query.orderId ? { orderId: query.orderId } : {}),
    };
    const rows = await this.events.list(orgId, filter, after, limit + 1, order);
    return toPage(rows, limit, (row) => ({ createdAt: row.createdAt, position: row.key.position }), LOG_KEY);
  }

  /** The organisation's events created in `range`, oldest first, as CSV read a batch at a time. */
  exportCsv(orgId: number, range: TimeRange): AsyncGenerator<string> {
    const batches = keysetBatches<LoggedEvent, LogKey>(
      (after, size) => this.events.list(orgId, range, after, size, 'oldest-first'),
      (row) => ({ createdAt: row.createdAt, position: row.key.position }),
      EXPORT_BATCH,
    );
    return csvChunks(EVENT_CSV_HEADER, mapBatches(batches, eventCsvRow));
  }

  /** One event of the organisation, as the JSON text of `data`; 404 for another's. */
  async get(orgId: number, id: string): Promise<string> {
    return eventEntryText(await this.find(orgId, id));
  }

  /** One event's row; 404 for another organisation's. */
  async find(orgId: number, id: string): Promise<LoggedEvent> {
    const row = await this.events.find(orgId, id);
    if (!row) throw notFound(`no event ${id}`);
    return row;
  }
}
