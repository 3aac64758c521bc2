// A user's KYC: documents and form from the organisation, decisions from operators, expiry by the sweep.
// Each change locks the user row, asks the state machine, and writes the change, its events (spec 6.4)
// with their delivery jobs, and for operators the audit row, in one transaction.
import { Inject, Injectable } from '@nestjs/common';
import { KycDocument, User } from '@svc/db';
import type { KycEventType } from '@svc/protocol';
import { DataSource, type EntityManager, In, LessThanOrEqual } from 'typeorm';

import { AuditService } from '../admin/audit.service.js';
import { conflict } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { EventsService } from '../events/events.service.js';
import { UsersService } from '../users/users.service.js';
import { userRecord } from '../users/user.view.js';
import type { CheckedFile } from './document-file.js';
import { toKycForm, type KycFormDto } from './dto/kyc-form.dto.js';
import type { UploadDocumentDto } from './dto/upload-document.dto.js';
import {
  KYC_TRANSITIONS,
  KycTransitionError,
  expiryClockRuns,
  kycEvents,
  userChangesAfter,
  type KycStep,
} from './kyc-state-machine.js';
import { kycView, type KycReview, type KycView } from './kyc.view.js';

/** An operator's decision and the text that goes with it. */
export type KycDecision =
  | { readonly step: 'approve'; readonly note?: string | undefined }
  | { readonly step: 'reject'; readonly reason: string }
  | { readonly step: 'request-information'; readonly message: string };

const AUDIT_ACTIONS = {
  approve: 'kyc.approve',
  reject: 'kyc.reject',
  'request-information': 'kyc.request-information',
} as const;

/**
 * pg_try_advisory_xact_lock key of the expiry sweep: one sweeper at a time. "kyc_exp" in ASCII
 * (0x6b79635f657870), written in decimal because PostgreSQL before 16 reads no hex integers.
 */
export const KYC_EXPIRY_LOCK = '30251290217248880';
const EXPIRY_BATCH = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

@Injectable()
export class KycService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly events: EventsService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async get(orgId: number, orgUserId: string): Promise<KycView> {
    return this.view(
      this.dataSource.manager,
      await this.users.find(this.dataSource.manager, orgId, orgUserId),
    );
  }

  async uploadDocument(
    orgId: number,
    orgUserId: string,
    fields: UploadDocumentDto,
    file: CheckedFile,
  ): Promise<KycView> {
    return this.dataSource.transaction(async (manager) => {
      const user = await this.users.find(manager, orgId, orgUserId, true);
      const events = this.plan(user, 'upload');
      await manager.insert(KycDocument, {
        orgId,
        userId: user.id,
        docCategory: fields.docCategory,
        docSubCategory: fields.docSubCategory,
        fileName: file.fileName,
        contentType: file.contentType,
        sizeBytes: file.content.length,
        sha256: file.sha256,
        content: file.content,
      });
      await this.apply(manager, user, events, {
        docCategory: fields.docCategory,
        docSubCategory: fields.docSubCategory,
      });
      return this.view(manager, user);
    });
  }

  async submitForm(orgId: number, orgUserId: string, input: KycFormDto): Promise<KycView> {
    return this.dataSource.transaction(async (manager) => {
      const user = await this.users.find(manager, orgId, orgUserId, true);
      const events = this.plan(user, 'submit-form');
      if (!(await manager.exists(KycDocument, { where: { userId: user.id } }))) {
        throw conflict(
          `cannot submit the form while KYC is ${user.kycState}: upload at least one document first`,
        );
      }
      user.kycForm = toKycForm(input);
      await this.apply(manager, user, events);
      return this.view(manager, user);
    });
  }

  /** An operator's decision; audited in the same transaction, as `actor` (X-Admin-Actor). */
  async review(actor: string, orgId: number, orgUserId: string, decision: KycDecision): Promise<KycView> {
    return this.dataSource.transaction(async (manager) => {
      const user = await this.users.find(manager, orgId, orgUserId, true);
      const events = this.plan(user, decision.step);
      const eventIds = await this.apply(manager, user, events);
      const { step, ...text } = decision;
      await this.audit.record(manager, {
        actor,
        action: AUDIT_ACTIONS[step],
        orgId,
        details: { orgUserId, eventType: events.at(-1), eventId: eventIds.at(-1), ...text },
      });
      return this.view(manager, user);
    });
  }

  /**
   * Expires every user whose KYC step has waited past kycExpiresAt, each with its KYC_EXPIRED event.
   * Every api instance runs this; the advisory lock lets one at a time work, the others return at once.
   * Returns how many users it expired, or null when another instance holds the lock.
   */
  async expireDue(now = new Date()): Promise<number | null> {
    let total = 0;
    for (;;) {
      const expired = await this.dataSource.transaction(async (manager) => {
        const [lock] = await manager.query<{ locked: boolean }[]>(
          'SELECT pg_try_advisory_xact_lock($1::bigint) AS locked',
          [KYC_EXPIRY_LOCK],
        );
        if (!lock?.locked) return null;
        // A user locked by a request in flight is left for the next sweep rather than waited for.
        const due = await manager.getRepository(User).find({
          where: { kycState: In([...KYC_TRANSITIONS.expire.from]), kycExpiresAt: LessThanOrEqual(now) },
          order: { kycExpiresAt: 'ASC' },
          take: EXPIRY_BATCH,
          lock: { mode: 'pessimistic_write', onLocked: 'skip_locked' },
        });
        for (const user of due) await this.apply(manager, user, this.plan(user, 'expire'));
        return due.length;
      });
      if (expired === null) return total > 0 ? total : null;
      total += expired;
      if (expired < EXPIRY_BATCH) return total;
    }
  }

  /** The events of `step` from the user's state, or the 409 naming both. */
  private plan(user: User, step: KycStep): KycEventType[] {
    try {
      return kycEvents(user.kycState, step);
    } catch (error) {
      if (error instanceof KycTransitionError) throw conflict(error.message);
      throw error;
    }
  }

  /**
   * Moves the user through `events` in order, recording each with the user record as it stands after it
   * (plus `extra` on KYC_DOC_UPLOADED), then saves the user. Returns the event ids.
   */
  private async apply(
    manager: EntityManager,
    user: User,
    events: readonly KycEventType[],
    extra?: { docCategory: string; docSubCategory: string },
  ): Promise<string[]> {
    const ids: string[] = [];
    for (const eventType of events) {
      const changes = userChangesAfter(eventType);
      user.kycState = eventType;
      user.kyc = changes.kyc;
      if (changes.userStatus) user.userStatus = changes.userStatus;
      user.kycExpiresAt = expiryClockRuns(eventType)
        ? new Date(Date.now() + this.config.kycExpiryDays * DAY_MS)
        : null;
      const data =
        eventType === 'KYC_DOC_UPLOADED' && extra ? { ...userRecord(user), ...extra } : userRecord(user);
      ids.push(await this.events.record(manager, { orgId: user.orgId, entity: 'Users', eventType, data }));
    }
    await manager.save(user);
    return ids;
  }

  private async view(manager: EntityManager, user: User): Promise<KycView> {
    const documents = await manager.find(KycDocument, {
      where: { userId: user.id },
      order: { createdAt: 'ASC' },
    });
    return kycView(user, documents, await this.lastReview(manager, user));
  }

  private async lastReview(manager: EntityManager, user: User): Promise<KycReview | null> {
    const [row] = await manager.query<
      {
        details: { eventType: KycReview['eventType']; note?: string; reason?: string; message?: string };
        at: Date;
      }[]
    >(
      `SELECT details, created_at AS at FROM audit_log
        WHERE org_id = $1 AND action LIKE 'kyc.%' AND details->>'orgUserId' = $2
        ORDER BY id DESC LIMIT 1`,
      [user.orgId, user.orgUserId],
    );
    if (!row) return null;
    const { eventType, note, reason, message } = row.details;
    return { eventType, message: reason ?? message ?? note ?? null, at: row.at.toISOString() };
  }
}
