// The events table as the delivery queue (docs/decisions.md, "Webhooks: the events table as the queue").
// Each of the worker's fetchers takes a batch of due PENDING events with `FOR UPDATE SKIP LOCKED` (the
// partial index events_due), makes their attempts, and writes the outcomes in the same transaction:
// DELIVERED, or the next attempt's time (backoff, a receiver's Retry-After, a busy endpoint), or FAILED.
// The row lock is the lease: a process that dies mid-batch loses its connection, PostgreSQL rolls its
// transaction back, and the events are due again at once for the other fetchers.
// Wake-ups: the NOTIFY the api's insert of events already sends (EVENTS_CHANNEL) wakes one idle fetcher.
import { EVENTS_CHANNEL, query, transaction, type Statement } from '@svc/db';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

import type { WorkerConfig } from './config.js';
import type { DeliveryProcessor } from './delivery.js';
import type { EventRow } from './delivery-rows.js';

/**
 * The due events and their organisations' endpoints, oldest due first, skipping those another fetcher
 * holds. Prepared once per connection, as the other per-batch statements.
 */
const FETCH_DUE: Statement = {
  name: 'webhooks_fetch_due',
  text: `SELECT e.id, e.org_id, e.entity, e.event_type, e.data::text AS data, e.status, e.num_retries, e.created_at, e.updated_at,
                w.id AS endpoint_id, w.url, w.secret_ciphertext, w.status AS endpoint_status, w.paused_until,
                w.last_failure_email_at
           FROM events e LEFT JOIN webhook_endpoints w ON w.org_id = e.org_id
          WHERE e.status = 'PENDING' AND e.next_attempt_at <= now()
          ORDER BY e.next_attempt_at LIMIT $1
            FOR UPDATE OF e SKIP LOCKED`,
};

/** After a failed batch (PostgreSQL away), a fetcher waits this long before it tries again. */
const ERROR_PAUSE_MS = 1000;

export interface RunningQueue {
  /** Stops taking batches; resolves when the batches in flight have committed. */
  stop(): Promise<void>;
}

export async function startEventQueue(
  config: WorkerConfig,
  dataSource: DataSource,
  boss: PgBoss,
  deliveries: DeliveryProcessor,
  logger: Logger,
): Promise<RunningQueue> {
  // An object, so the fetchers' loops see a stop that comes while they wait.
  const state = { stopping: false };
  const stopped = (): boolean => state.stopping;
  // The idle fetchers' wake-ups, oldest idle first: a notification wakes one of them.
  const idle: (() => void)[] = [];
  // A notification that found every fetcher busy: the next one to finish looks again at once.
  let missed = false;
  const rest = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        const at = idle.indexOf(done);
        if (at >= 0) idle.splice(at, 1);
        resolve();
      };
      const timer = setTimeout(done, ms);
      idle.push(done);
    });

  // The earliest time an event was put back for (ms): the fetcher that rests next wakes then.
  let putBack = Number.POSITIVE_INFINITY;
  const batch = async (): Promise<number> => {
    const { taken, due } = await transaction(dataSource, async (client) => {
      const rows = await query<EventRow>(client, FETCH_DUE, [config.batchSize]);
      return {
        taken: rows.length,
        due: rows.length > 0 ? await deliveries.deliverDue(rows, client) : undefined,
      };
    });
    // Once committed: when the first event this batch put back is due again.
    if (due !== undefined) putBack = Math.min(putBack, due);
    return taken;
  };

  const fetcher = async () => {
    while (!state.stopping) {
      let taken: number;
      try {
        taken = await batch();
      } catch (error) {
        logger.warn({ err: error }, 'queue error');
        await rest(ERROR_PAUSE_MS);
        continue;
      }
      // A full batch: more are due, go on at once. Else wait for a notification, or the next poll (due
      // retries and put-back events have no notification).
      if (taken >= config.batchSize || stopped()) continue;
      if (missed) {
        missed = false;
        continue;
      }
      const now = Date.now();
      if (putBack <= now) putBack = Number.POSITIVE_INFINITY;
      await rest(Math.max(0, Math.min(config.pollIntervalMs, putBack - now)));
    }
  };
  const running = Array.from({ length: config.fetchers }, () => fetcher());

  // pg-boss's LISTEN connection handling: reconnects with backoff; after a reconnect every fetcher looks.
  const listener = await boss.getDb().listen?.(
    EVENTS_CHANNEL,
    () => {
      const wake = idle.shift();
      if (wake) wake();
      else missed = true;
    },
    () => idle.splice(0).forEach((wake) => wake()),
  );
  return {
    async stop() {
      state.stopping = true;
      await listener?.close();
      idle.splice(0).forEach((wake) => wake());
      await Promise.all(running);
    },
  };
}
