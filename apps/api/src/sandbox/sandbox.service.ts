// A sandbox organisation's own routes (docs/testing.md): its test clock, read and moved forward, and
// events triggered on demand. A live organisation has none of it: every route answers 404 for it.
import { randomBytes } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { transaction, type User } from '@svc/db';
import { DataSource, type EntityManager } from 'typeorm';

import { badRequest, notFound } from '../common/errors.js';
import { KycService } from '../kyc/kyc.service.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { userRecord } from '../users/user.view.js';
import { UsersService } from '../users/users.service.js';
import type { AdvanceClockDto } from './dto/advance-clock.dto.js';
import type { TriggerEventDto } from './dto/trigger-event.dto.js';
import { OrgClockRepository } from './org-clock.repository.js';
import { kycRecord, orderRecord, orgRecord } from './triggered-records.js';

/** The test clock as answered. */
export interface SandboxClockView {
  readonly orgId: number;
  /** The organisation's time. */
  readonly now: string;
  /** How far ahead of real time it is, in milliseconds. */
  readonly offsetMs: number;
}

/** What POST /api/v1/sandbox/events did: the event, and the user it was about if it created one. */
export interface TriggeredEvent {
  readonly eventId: string;
  readonly orgUserId: string | null;
  readonly createdUser: boolean;
}

const NOT_SANDBOX = 'sandbox routes exist only for sandbox organisations';

@Injectable()
export class SandboxService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clocks: OrgClockRepository,
    private readonly users: UsersService,
    private readonly events: OutboxService,
    private readonly kyc: KycService,
  ) {}

  async clock(orgId: number): Promise<SandboxClockView> {
    const offsetMs = await this.offsetOf(this.dataSource.manager, orgId);
    return clockView(orgId, offsetMs);
  }

  /**
   * Moves the clock forward by `advanceBy` seconds or to `to`, never back; then runs the KYC expiry sweep,
   * so that what fell due by the new time expires at once rather than at the next sweep.
   */
  async advance(orgId: number, input: AdvanceClockDto): Promise<SandboxClockView> {
    if ((input.advanceBy === undefined) === (input.to === undefined)) {
      throw badRequest('send exactly one of advanceBy (seconds) and to (an ISO 8601 time)');
    }
    const offsetMs = await transaction(this.dataSource, async (manager) => {
      await this.offsetOf(manager, orgId);
      const current = await this.clocks.lock(manager, orgId);
      const next = nextOffset(current, input, Date.now());
      await this.clocks.save(manager, orgId, next);
      return next;
    });
    await this.kyc.expireDue();
    return clockView(orgId, offsetMs);
  }

  /**
   * Records one event of the kind asked for, as any other is recorded (stored, in the log and the stream,
   * delivered with retries); a Users or Orders event is about the user named, or a new one it creates
   * (whose creation is a Users event of its own: the one answered when that is what was asked for).
   */
  trigger(orgId: number, input: TriggerEventDto): Promise<TriggeredEvent> {
    const { entity, eventType } = input;
    if (eventType !== undefined && entity !== 'Users') {
      throw badRequest('eventType applies to entity Users only (the KYC events)');
    }
    if (input.orgUserId !== undefined && entity !== 'Users' && entity !== 'Orders') {
      throw badRequest('orgUserId applies to entity Users and Orders only');
    }
    return transaction(this.dataSource, async (manager) => {
      await this.offsetOf(manager, orgId);
      if (entity === 'Actions' || entity === 'SystemInformation') {
        const eventId = await this.events.record(manager, { orgId, entity, data: orgRecord(entity) });
        return { eventId, orgUserId: null, createdUser: false };
      }
      const { user, creation } = await this.userFor(manager, orgId, input.orgUserId);
      if (entity === 'Users' && eventType === undefined && creation !== null) {
        return { eventId: creation, orgUserId: user.orgUserId, createdUser: true };
      }
      const data =
        entity === 'Orders'
          ? orderRecord(orgId, user.orgUserId, new Date())
          : eventType === undefined
            ? userRecord(user)
            : kycRecord(userRecord(user), eventType);
      const eventId = await this.events.record(manager, {
        orgId,
        entity,
        ...(eventType === undefined ? {} : { eventType }),
        data,
      });
      return { eventId, orgUserId: user.orgUserId, createdUser: creation !== null };
    });
  }

  /** The named user (404 when there is none), or a new sandbox user with the id of its Users event. */
  private async userFor(
    manager: EntityManager,
    orgId: number,
    orgUserId: string | undefined,
  ): Promise<{ user: User; creation: string | null }> {
    if (orgUserId !== undefined) {
      return { user: await this.users.find(manager, orgId, orgUserId), creation: null };
    }
    const created = await this.users.insert(manager, orgId, {
      orgUserId: `sandbox-${randomBytes(6).toString('hex')}`,
      kyc: false,
      tnc: true,
    });
    return { user: created.user, creation: created.eventId };
  }

  /** The clock's offset of a sandbox organisation; 404 for a live one. */
  private async offsetOf(manager: EntityManager, orgId: number): Promise<number> {
    const row = await this.clocks.read(manager, orgId);
    if (row?.environment !== 'SANDBOX') throw notFound(NOT_SANDBOX);
    return row.offsetMs;
  }
}

/** The new offset: later than the current one, or a 400 naming the field. */
export function nextOffset(current: number, input: AdvanceClockDto, realNow: number): number {
  if (input.advanceBy !== undefined) return current + input.advanceBy * 1000;
  const target = Date.parse(input.to ?? '');
  const orgNow = realNow + current;
  if (target < orgNow) {
    throw badRequest(
      `to must not be before the organisation's current time ${new Date(orgNow).toISOString()}: the clock never goes back`,
    );
  }
  return target - realNow;
}

function clockView(orgId: number, offsetMs: number): SandboxClockView {
  return { orgId, now: new Date(Date.now() + offsetMs).toISOString(), offsetMs };
}
