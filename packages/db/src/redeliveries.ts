// Attempts asked for outside the retry schedule (docs/decisions.md, "Webhooks: one queue for every
// attempt"): rows of webhook_redeliveries, which the worker takes as it takes due PENDING events.
import { EVENTS_CHANNEL } from './event-log.js';
import { query, type SqlTarget } from './sql.js';

/**
 * Queues one attempt of each event, due at once, as part of `recoveryId` when given, and wakes the worker
 * (at commit, like the events' own notification; the empty payload names no organisation, so no event
 * stream reads again). Run it in the transaction of the change that asks for it.
 */
export async function queueRedeliveries(
  on: SqlTarget,
  eventIds: readonly string[],
  recoveryId: string | null = null,
): Promise<void> {
  if (eventIds.length === 0) return;
  await query(
    on,
    `WITH queued AS (
       INSERT INTO webhook_redeliveries (event_id, recovery_id) SELECT unnest($1::uuid[]), $2::uuid RETURNING 1)
     SELECT pg_notify($3, '') FROM (SELECT 1 FROM queued LIMIT 1) AS any_queued`,
    [eventIds, recoveryId, EVENTS_CHANNEL],
  );
}
