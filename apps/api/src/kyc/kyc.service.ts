// A user's KYC: documents and form from the organisation, decisions from operators, expiry by the sweep. Each
// change locks the user row, asks the state machine, and writes the change, its events
// (docs/api-guide.md#events) with their delivery jobs, and for operators the audit row, in one transaction.
import { Inject, Injectable } from '@nestjs/common';
import { type KycDecisionEvent, type KycDocument, type KycState, transaction, type User } from '@svc/db';
import type { KycEventType } from '@svc/protocol';
import { DataSource, type EntityManager } from 'typeorm';

import { AuditService } from '../audit/audit.service.js';
import { type AuditActor, systemActor } from '../audit/admin-actor.decorator.js';
import { conflict, notFound } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { SANDBOX_KYC_TEXT, sandboxKycStep } from '../sandbox/magic-values.js';
import { OrgClock } from '../sandbox/org-clock.service.js';
import { UsersRepository, type UserChanges } from '../users/users.repository.js';
import { UsersService } from '../users/users.service.js';
import { userRecord } from '../users/user.view.js';
import type { CheckedFile } from './document-file.js';
import { toKycForm, type KycForm, type KycFormDto } from './dto/kyc-form.dto.js';
import type { UploadDocumentDto } from './dto/upload-document.dto.js';
import {
  KYC_TRANSITIONS,
  KycTransitionError,
  expiryClockRuns,
  kycEvents,
  userChangesAfter,
  type KycStep,
} from './kyc-state-machine.js';
import {
  type KycHistoryItem,
  type KycQueueCursor,
  type KycQueueRow,
  KycRepository,
} from './kyc.repository.js';
import { kycView, type KycView } from './kyc.view.js';

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

/** Who the sandbox's own KYC steps are audited as (docs/testing.md#magic-values). */
export const SANDBOX_ACTOR = systemActor('sandbox');

/**
 * pg_try_advisory_xact_lock key of the expiry sweep: one sweeper at a time. "kyc_exp" in ASCII
 * (0x6b79635f657870), written in decimal because PostgreSQL before 16 reads no hex integers.
 */
export const KYC_EXPIRY_LOCK = '30251290217248880';
const EXPIRY_BATCH = 500;

/** One KYC transition: the state the user left and the event it moved to. */
interface KycMove {
  readonly from: KycState;
  readonly to: KycEventType;
}
const DAY_MS = 24 * 60 * 60 * 1000;

@Injectable()
export class KycService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly kyc: KycRepository,
    private readonly users: UsersService,
    private readonly userRows: UsersRepository,
    private readonly events: OutboxService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly clock: OrgClock,
  ) {}

  async get(orgId: number, orgUserId: string): Promise<KycView> {
    return this.view(
      this.dataSource.manager,
      await this.users.find(this.dataSource.manager, orgId, orgUserId),
    );
  }

  /** The user's KYC events, newest first (at most `limit`), with the operator's text on decisions. */
  history(orgId: number, orgUserId: string, limit = 100): Promise<KycHistoryItem[]> {
    return this.kyc.history(this.dataSource.manager, orgId, orgUserId, limit);
  }

  /**
   * The review queue (docs/console.md#kyc-review): users of every organisation whose form waits for an
   * operator's decision, the longest waiting first, each with when it was submitted: its event's time, as
   * expiresAt runs on the organisation's clock, which a sandbox one may have moved.
   */
  async reviewQueue(
    limit: number,
    after: KycQueueCursor | null,
    orgUserIdPrefix?: string,
  ): Promise<{ items: (KycQueueRow & { submittedAt: Date })[]; total: number }> {
    const waiting = KYC_TRANSITIONS.approve.from;
    const { rows, total } = await this.kyc.reviewQueue(
      this.dataSource.manager,
      waiting,
      limit,
      after,
      orgUserIdPrefix,
    );
    return {
      items: rows.map((row) => ({
        ...row,
        submittedAt: row.submittedAt ?? this.waitingSince(row.expiresAt),
      })),
      total,
    };
  }

  /**
   * When the user last submitted the form, in real time (its event's time); what the expiry tells when
   * that event is gone.
   */
  async submittedAt(orgId: number, orgUserId: string, expiresAt: Date): Promise<Date> {
    return (
      (await this.kyc.lastSubmission(this.dataSource.manager, orgId, orgUserId)) ??
      this.waitingSince(expiresAt)
    );
  }

  /**
   * When a step that expires at `expiresAt` began: its expiry is set KYC_EXPIRY_DAYS after it, on the
   * organisation's clock (real time for a live organisation).
   */
  private waitingSince(expiresAt: Date): Date {
    return new Date(expiresAt.getTime() - this.config.kycExpiryDays * DAY_MS);
  }

  /** One of the user's documents with its content; 404 when the user or the document is not there. */
  async document(orgId: number, orgUserId: string, documentId: string): Promise<KycDocument> {
    const user = await this.users.find(this.dataSource.manager, orgId, orgUserId);
    const document = await this.kyc.documentWithContent(this.dataSource.manager, user.id, documentId);
    if (!document) throw notFound(`document ${documentId} is not one of this user's`);
    return document;
  }

  /** The first bytes of each of the user's documents, by id (the console tells their type by them). */
  async documentHeads(orgId: number, orgUserId: string): Promise<Map<string, Buffer>> {
    const user = await this.users.find(this.dataSource.manager, orgId, orgUserId);
    return this.kyc.documentHeads(this.dataSource.manager, user.id);
  }

  async uploadDocument(
    orgId: number,
    orgUserId: string,
    fields: UploadDocumentDto,
    file: CheckedFile,
  ): Promise<KycView> {
    return this.transition(async (manager, moves) => {
      const user = await this.users.find(manager, orgId, orgUserId, true);
      const events = this.plan(user, 'upload');
      await this.kyc.insertDocument(manager, {
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
      await this.apply(manager, moves, user, events, {
        document: { docCategory: fields.docCategory, docSubCategory: fields.docSubCategory },
      });
      return this.view(manager, user);
    });
  }

  async submitForm(orgId: number, orgUserId: string, input: KycFormDto): Promise<KycView> {
    return this.transition(async (manager, moves) => {
      const user = await this.users.find(manager, orgId, orgUserId, true);
      const events = this.plan(user, 'submit-form');
      if (!(await this.kyc.hasDocuments(manager, user.id))) {
        throw conflict(
          `cannot submit the form while KYC is ${user.kycState}: upload at least one document first`,
        );
      }
      await this.apply(manager, moves, user, events, { kycForm: toKycForm(input) });
      await this.sandboxStep(manager, moves, user);
      return this.view(manager, user);
    });
  }

  /**
   * In a sandbox organisation, a magic orgUserId makes KYC move on as soon as the form arrives, in the same
   * transaction: decided as an operator would, or expired as the sweep would, audited as the sandbox.
   */
  private async sandboxStep(manager: EntityManager, moves: KycMove[], user: User): Promise<void> {
    const step = sandboxKycStep(user.orgUserId);
    if (step === null || !(await this.clock.isSandbox(user.orgId, manager))) return;
    if (step === 'expire') {
      const eventIds = await this.apply(manager, moves, user, this.plan(user, 'expire'));
      await this.audit.record(manager, {
        actor: SANDBOX_ACTOR,
        action: 'kyc.expire',
        orgId: user.orgId,
        details: { orgUserId: user.orgUserId, eventType: 'KYC_EXPIRED', eventId: eventIds.at(-1) },
      });
      return;
    }
    const decision: KycDecision =
      step === 'approve'
        ? { step }
        : step === 'reject'
          ? { step, reason: SANDBOX_KYC_TEXT.reject }
          : { step, message: SANDBOX_KYC_TEXT['request-information'] };
    await this.decide(manager, moves, SANDBOX_ACTOR, user, decision);
  }

  /**
   * An operator's decision: the user's review history gets it, and it is audited in the same
   * transaction, as `actor` (the operator from their session or token).
   */
  async review(actor: AuditActor, orgId: number, orgUserId: string, decision: KycDecision): Promise<KycView> {
    return this.transition(async (manager, moves) => {
      const user = await this.users.find(manager, orgId, orgUserId, true);
      await this.decide(manager, moves, actor, user, decision);
      return this.view(manager, user);
    });
  }

  /** A decision on a user locked in this transaction: its events, the review row and the audit row. */
  private async decide(
    manager: EntityManager,
    moves: KycMove[],
    actor: AuditActor,
    user: User,
    decision: KycDecision,
  ): Promise<void> {
    const events = this.plan(user, decision.step);
    const eventIds = await this.apply(manager, moves, user, events);
    const { step, ...text } = decision;
    await this.kyc.insertReview(manager, {
      orgId: user.orgId,
      userId: user.id,
      eventType: events.at(-1) as KycDecisionEvent,
      message: 'reason' in text ? text.reason : 'message' in text ? text.message : (text.note ?? null),
      reviewer: actor.label,
      eventId: eventIds.at(-1) ?? '',
    });
    await this.audit.record(manager, {
      actor,
      action: AUDIT_ACTIONS[step],
      orgId: user.orgId,
      details: { orgUserId: user.orgUserId, eventType: events.at(-1), eventId: eventIds.at(-1), ...text },
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
      const expired = await this.transition(async (manager, moves) => {
        if (!(await this.kyc.tryExpiryLock(manager, KYC_EXPIRY_LOCK))) return null;
        const due = await this.userRows.lockExpired(manager, KYC_TRANSITIONS.expire.from, now, EXPIRY_BATCH);
        for (const user of due) await this.apply(manager, moves, user, this.plan(user, 'expire'));
        return due.length;
      });
      if (expired === null) return total > 0 ? total : null;
      total += expired;
      if (expired < EXPIRY_BATCH) return total;
    }
  }

  /** Runs `work` in one transaction; the KYC transitions it makes are counted once it commits. */
  private async transition<T>(work: (manager: EntityManager, moves: KycMove[]) => Promise<T>): Promise<T> {
    const moves: KycMove[] = [];
    const result = await transaction(this.dataSource, (manager) => work(manager, moves));
    this.metrics.kycTransitioned(moves);
    return result;
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
   * (plus the document's categories on KYC_DOC_UPLOADED), then writes the user, with `kycForm` when
   * given. Each step is added to `moves`. Returns the event ids.
   */
  private async apply(
    manager: EntityManager,
    moves: KycMove[],
    user: User,
    events: readonly KycEventType[],
    extra: { document?: { docCategory: string; docSubCategory: string }; kycForm?: KycForm } = {},
  ): Promise<string[]> {
    const ids: string[] = [];
    // A step's expiry runs on the organisation's clock (docs/decisions.md, "Sandbox: the test clock").
    const now = events.some(expiryClockRuns) ? await this.clock.now(user.orgId, manager) : null;
    for (const eventType of events) {
      const changes = userChangesAfter(eventType);
      moves.push({ from: user.kycState, to: eventType });
      user.kycState = eventType;
      user.kyc = changes.kyc;
      if (changes.userStatus) user.userStatus = changes.userStatus;
      user.kycExpiresAt =
        now && expiryClockRuns(eventType)
          ? new Date(now.getTime() + this.config.kycExpiryDays * DAY_MS)
          : null;
      const data =
        eventType === 'KYC_DOC_UPLOADED' && extra.document
          ? { ...userRecord(user), ...extra.document }
          : userRecord(user);
      ids.push(await this.events.record(manager, { orgId: user.orgId, entity: 'Users', eventType, data }));
    }
    const { kycState, kyc, userStatus, kycExpiresAt } = user;
    const changes: UserChanges = { kycState, kyc, userStatus, kycExpiresAt };
    if (extra.kycForm) changes.kycForm = extra.kycForm;
    await this.userRows.update(manager, user, changes);
    return ids;
  }

  private async view(manager: EntityManager, user: User): Promise<KycView> {
    const documents = await this.kyc.documents(manager, user.id);
    const review = await this.kyc.lastReview(manager, user.id);
    return kycView(
      user,
      documents,
      review && { eventType: review.eventType, message: review.message, at: review.createdAt.toISOString() },
    );
  }
}
