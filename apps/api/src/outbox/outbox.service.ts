// Records an organisation's events with their delivery jobs in the caller's transaction, so a change and
// its event commit together or not at all (docs/decisions.md, "Events: the outbox").
import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import type { EntityName } from '@svc/protocol';
import type { EntityManager } from 'typeorm';

import { OutboxRepository, type NewEvent } from './outbox.repository.js';

export type { NewEvent } from './outbox.repository.js';

@Injectable()
export class OutboxService {
  constructor(private readonly events: OutboxRepository) {}

  /** Records the event; answers its id. `manager` must be inside the change's transaction. */
  async record(manager: EntityManager, event: NewEvent): Promise<string> {
    const id = randomUUID();
    await this.events.insert(manager, id, event);
    return id;
  }

  /** Records several events in one statement; answers their ids, in the order given. */
  async recordMany(manager: EntityManager, events: readonly NewEvent[]): Promise<string[]> {
    const ids = events.map(() => randomUUID());
    await this.events.insertMany(manager, ids, events);
    return ids;
  }

  /**
   * One event with the same `data` for every organisation whose webhook endpoint is ACTIVE (a system notice,
   * docs/api-guide.md#events). An organisation without a working endpoint gets nothing: it could never
   * receive the event, and it would only be SKIPPED. Answers how many organisations got it.
   */
  broadcast(manager: EntityManager, event: { entity: EntityName; data: object }): Promise<number> {
    return this.events.insertForActiveEndpoints(manager, event.entity, event.data);
  }
}
