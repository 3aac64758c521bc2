// Recovery (docs/api-guide.md#recovering-failed-events; docs/decisions.md, "Webhooks: redelivery and
// recovery"): the request is checked and recorded here, with the job that the worker runs in the background
// to choose the FAILED events and redeliver each once.
import { Inject, Injectable } from '@nestjs/common';
import { transaction } from '@svc/db';
import { DataSource } from 'typeorm';

import { badRequest, conflict, notFound } from '../common/errors.js';
import { parseInstant } from '../common/instant.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { RecoverDto } from './dto/recover.dto.js';
import { recoveryView, type RecoveryView } from './recovery.view.js';
import { WebhooksRepository } from './webhooks.repository.js';

const UNIQUE_VIOLATION = '23505';

@Injectable()
export class RecoveriesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Records the recovery and its job; 400 for a `since` outside [now - window, now], 409 while one runs. */
  async start(orgId: number, input: RecoverDto): Promise<RecoveryView> {
    const since = parseInstant(input.since);
    if (!since) throw badRequest('since must be an ISO 8601 date and time'); // the DTO checked it already
    const now = Date.now();
    if (since.getTime() > now) throw badRequest('since must not be in the future');
    if (since.getTime() < now - this.config.webhooks.windowMs) {
      throw badRequest(
        `since must be within the delivery window (the last ${duration(this.config.webhooks.windowMs)}): ` +
          'older events cannot be redelivered',
      );
    }
    try {
      return await transaction(this.dataSource, async (manager) => {
        const endpoint = await this.webhooks.findEndpoint(orgId, manager);
        if (endpoint?.status !== 'ACTIVE') throw conflict('no active webhook is registered');
        const running = await this.webhooks.findUnfinishedRecovery(manager, orgId);
        if (running) throw alreadyRunning(running.id);
        return recoveryView(await this.webhooks.insertRecovery(manager, orgId, since));
      });
    } catch (error) {
      // Two requests at once: the second meets the first's row in the unique index.
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      const running = await this.webhooks.findUnfinishedRecovery(this.dataSource.manager, orgId);
      throw alreadyRunning(running?.id);
    }
  }

  /** The organisation's most recent recovery, if it ever started one. */
  async latest(orgId: number): Promise<RecoveryView | null> {
    const recovery = await this.webhooks.findLatestRecovery(orgId);
    return recovery && recoveryView(recovery);
  }

  async get(orgId: number, id: string): Promise<RecoveryView> {
    const recovery = await this.webhooks.findRecovery(orgId, id);
    if (!recovery) throw notFound(`no recovery ${id}`);
    return recoveryView(recovery);
  }
}

function alreadyRunning(id: string | undefined) {
  return conflict(
    `a recovery is already running${id ? ` (${id}): follow it at GET /api/v1/webhooks/recover/${id}/` : ''}; ` +
      'start another once it is COMPLETED',
  );
}

/** "24 hours" for the default window; milliseconds otherwise. */
function duration(ms: number): string {
  const hours = ms / 3_600_000;
  return Number.isInteger(hours) ? `${hours} hour${hours === 1 ? '' : 's'}` : `${ms} ms`;
}
