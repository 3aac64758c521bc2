// The outbox: every write of the events table, always inside the caller's transaction, with the NOTIFY that
// wakes the webhooks worker and the event streams. The events table is the worker's queue (a new PENDING
// event is due at once), and a redelivery a due row beside it (docs/decisions.md, "Webhooks: one queue for
// every attempt"). Plain SQL: an event is written by every change on the hot paths, where TypeORM's insert
// builder cost about 0.05 ms of CPU per row (docs/decisions.md, "Request path: SQL on the hot tables": the
// signed routes' targets), sent on the transaction's pg connection (@svc/db's `query`), past TypeORM's
// query wrapper (its logger call, four subscriber broadcasts and result object per statement).
// Style: SQL for events (and webhook_redeliveries, through @svc/db's queueRedeliveries).
import { Injectable } from '@nestjs/common';
import {
  EVENTS_CHANNEL,
  type Event,
  type EventStatus,
  eventsNotification,
  query,
  queueRedeliveries,
} from '@svc/db';
import type { EntityName, KycEventType } from '@svc/protocol';
import type { EntityManager, QueryRunner } from 'typeorm';

export interface NewEvent {
  readonly orgId: number;
  readonly entity: EntityName;
  readonly eventType?: KycEventType;
  /** The body's `data`, exactly as it will be delivered. */
  readonly data: object;
}

@Injectable()
export class OutboxRepository {
  /**
   * The event's row. The same statement notifies the worker and the event streams (delivered at commit, to
   * every api instance): a pg_notify in the INSERT costs a fraction of a trigger doing it
   * (docs/decisions.md, "Events: serving the stream").
   */
  async insert(manager: EntityManager, id: string, event: NewEvent): Promise<void> {
    await query(
      transactionOf(manager),
      `WITH inserted AS (
         INSERT INTO events (id, org_id, entity, event_type, data) VALUES ($1, $2, $3, $4, $5) RETURNING org_id)
       SELECT pg_notify($6, org_id::text) FROM inserted`,
      [id, event.orgId, event.entity, event.eventType ?? null, JSON.stringify(event.data), EVENTS_CHANNEL],
    );
  }

  /**
   * Several events in one INSERT (a sweep's orders), with one NOTIFY naming their organisations in the same
   * statement (a round trip less on every cancel and every batch of a sweep); the rows keep the order given.
   */
  async insertMany(
    manager: EntityManager,
    ids: readonly string[],
    events: readonly NewEvent[],
  ): Promise<void> {
    if (events.length === 0) return;
    // A data-modifying WITH runs in full whether or not the SELECT reads it.
    await query(
      transactionOf(manager),
      `WITH inserted AS (
         INSERT INTO events (id, org_id, entity, event_type, data)
         SELECT id, org_id, entity, event_type, data::json
           FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY
                AS e(id, org_id, entity, event_type, data, n)
          ORDER BY n)
       SELECT pg_notify($6, $7)`,
      [
        ids,
        events.map((event) => event.orgId),
        events.map((event) => event.entity),
        events.map((event) => event.eventType ?? null),
        events.map((event) => JSON.stringify(event.data)),
        EVENTS_CHANNEL,
        eventsNotification(events.map((event) => event.orgId)),
      ],
    );
  }

  /**
   * One event with the same data for every organisation whose webhook endpoint is ACTIVE, the rows in one
   * INSERT ... SELECT. Answers how many organisations got it.
   */
  async insertForActiveEndpoints(manager: EntityManager, entity: EntityName, data: object): Promise<number> {
    const runner = transactionOf(manager);
    const rows = await query<{ org_id: number }>(
      runner,
      `INSERT INTO events (id, org_id, entity, data)
       SELECT gen_random_uuid(), org_id, $1, $2::json FROM webhook_endpoints WHERE status = 'ACTIVE'
       ORDER BY org_id
       RETURNING org_id`,
      [entity, JSON.stringify(data)],
    );
    if (rows.length > 0) {
      await query(runner, 'SELECT pg_notify($1, $2)', [
        EVENTS_CHANNEL,
        eventsNotification(rows.map((row) => row.org_id)),
      ]);
    }
    return rows.length;
  }

  /**
   * The organisation's event (its delivery columns and when it was made), locked for the rest of the
   * transaction: a batch of the worker holding it is waited for, and none takes it meanwhile.
   */
  async lock(
    manager: EntityManager,
    orgId: number,
    id: string,
  ): Promise<Pick<Event, 'status' | 'numRetries' | 'nextAttemptAt' | 'createdAt'> | null> {
    const [row] = await query<{
      status: EventStatus;
      num_retries: number;
      next_attempt_at: Date;
      created_at: Date;
    }>(
      manager,
      'SELECT status, num_retries, next_attempt_at, created_at FROM events WHERE id = $1 AND org_id = $2 FOR UPDATE',
      [id, orgId],
    );
    return row
      ? {
          status: row.status,
          numRetries: row.num_retries,
          nextAttemptAt: row.next_attempt_at,
          createdAt: row.created_at,
        }
      : null;
  }

  /**
   * A retrying event's scheduled retry made due at once and marked as asked for ("Retry now"): the event
   * keeps its one place in the queue, so it cannot get this attempt and the scheduled one too. Wakes the
   * worker at commit, as a redelivery does (docs/decisions.md, "Webhooks: Retry now").
   */
  async retryNow(manager: EntityManager, eventId: string): Promise<void> {
    await query(
      transactionOf(manager),
      `WITH asked AS (
         UPDATE events SET next_attempt_at = now(), retry_asked_at = now()
          WHERE id = $1 AND status = 'PENDING' RETURNING 1)
       SELECT pg_notify($2, '') FROM asked`,
      [eventId, EVENTS_CHANNEL],
    );
  }

  /** One more attempt of the event, committed with the caller's transaction. */
  async queueRedelivery(manager: EntityManager, eventId: string): Promise<void> {
    await queueRedeliveries(transactionOf(manager), [eventId]);
  }
}

/** The query runner of `manager`'s transaction; events and jobs are never written outside one. */
function transactionOf(manager: EntityManager): QueryRunner {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive)
    throw new Error('events are recorded inside the transaction of their change');
  return runner;
}
