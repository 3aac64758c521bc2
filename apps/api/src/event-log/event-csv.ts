// An event as a row of the events export (docs/dashboard.md#exports): what a list shows (time, entity,
// KYC type, delivery status, the user and order it concerns) and the data as delivered, as JSON text.
import type { CsvCell } from '../common/csv.js';
import type { EventLogRow } from './event-log.repository.js';

export const EVENT_CSV_HEADER = [
  'id',
  'createdAt',
  'entity',
  'eventType',
  'status',
  'orgUserId',
  'orderId',
  'data',
] as const;

/** The user and order an event's data names: orgUserId, and an Orders event's id. */
function concerns(row: EventLogRow): { orgUserId: string | null; orderId: string | null } {
  try {
    const data = JSON.parse(row.data) as { orgUserId?: unknown; id?: unknown };
    return {
      orgUserId: typeof data.orgUserId === 'string' ? data.orgUserId : null,
      orderId: row.entity === 'Orders' && typeof data.id === 'number' ? String(data.id) : null,
    };
  } catch {
    return { orgUserId: null, orderId: null };
  }
}

export function eventCsvRow(row: EventLogRow): CsvCell[] {
  const { orgUserId, orderId } = concerns(row);
  return [row.id, row.createdAt, row.entity, row.eventType, row.status, orgUserId, orderId, row.data];
}
