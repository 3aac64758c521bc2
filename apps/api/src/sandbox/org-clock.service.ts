// "Now" for an organisation (docs/decisions.md, "Sandbox: the test clock"): real time for a live
// organisation, real time plus the test clock's offset for a sandbox one. Every deadline an organisation's
// data runs to is measured against it: KYC expiry today, order expiry (DAY, GTD) and quotes later.
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

import { type ClockRow, OrgClockRepository } from './org-clock.repository.js';

@Injectable()
export class OrgClock {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clocks: OrgClockRepository,
  ) {}

  /** Now for this organisation; inside a transaction, pass its manager. */
  async now(orgId: number, manager: EntityManager = this.dataSource.manager): Promise<Date> {
    const row = await this.clocks.read(manager, orgId);
    return new Date(Date.now() + (row?.offsetMs ?? 0));
  }

  /** Whether the organisation is a sandbox one (false for none). */
  async isSandbox(orgId: number, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    return (await this.clocks.read(manager, orgId))?.environment === 'SANDBOX';
  }

  /** The environment and offset in one read; null when there is no such organisation. */
  read(orgId: number, manager: EntityManager = this.dataSource.manager): Promise<ClockRow | null> {
    return this.clocks.read(manager, orgId);
  }
}
