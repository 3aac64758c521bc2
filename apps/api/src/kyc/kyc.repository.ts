// Every query of KYC's own tables, kyc_documents and kyc_reviews, and the expiry sweep's lock. The
// user's KYC state lives on the users table, written through the users feature's repository.
// Style: TypeORM for kyc_documents and kyc_reviews (finders, and its query builder for a user's document
// heads and KYC history, the latter joined to events). The review queue is one SQL read across users,
// organisations, a count of kyc_documents and each user's last form submission (a row-value keyset), the
// sweep's lock is SQL, and so is a user's last form submission, on the events_org_user_kyc index.
import { Injectable } from '@nestjs/common';
import { Event, KycDocument, KycReview } from '@svc/db';
import type { EntityManager } from 'typeorm';

export type NewKycDocument = Pick<
  KycDocument,
  | 'orgId'
  | 'userId'
  | 'docCategory'
  | 'docSubCategory'
  | 'fileName'
  | 'contentType'
  | 'sizeBytes'
  | 'sha256'
  | 'content'
>;

/** A user waiting for an operator's decision, as the review queue lists them. */
export interface KycQueueRow {
  readonly orgId: number;
  readonly orgName: string;
  readonly orgUserId: string;
  readonly userId: string;
  /**
   * When the wait ends in KYC_EXPIRED, on the organisation's clock (a sandbox one's may run ahead); set when
   * the form was submitted, so it orders the queue.
   */
  readonly expiresAt: Date;
  /** When its KYC_FORM_SUBMITTED event was recorded (real time); null if that event is gone. */
  readonly submittedAt: Date | null;
  readonly documents: number;
}

/** Where a queue page starts: after this (expiresAt, user id). */
export interface KycQueueCursor {
  readonly expiresAt: Date;
  readonly userId: string;
}

/** One KYC event of a user, with the operator's text on a decision. */
export interface KycHistoryItem {
  readonly eventId: string;
  readonly eventType: string;
  readonly at: Date;
  /** The operator's text on a decision (reason, request), if any. */
  readonly message: string | null;
}

export type NewKycReview = Pick<
  KycReview,
  'orgId' | 'userId' | 'eventType' | 'message' | 'reviewer' | 'eventId'
>;

/**
 * The time of a user's last KYC_FORM_SUBMITTED event, with `$org` and `$user` standing for the
 * organisation's id and the orgUserId: on events_org_user_kyc, whose condition the event type implies.
 */
const LAST_SUBMISSION = `SELECT max(e.created_at) FROM events e
  WHERE e.org_id = $org AND e.entity = 'Users' AND e.event_type = 'KYC_FORM_SUBMITTED'
    AND e.data->>'orgUserId' = $user`;

/** The document columns a view shows: everything but the content. */
const DOCUMENT_COLUMNS = {
  id: true,
  docCategory: true,
  docSubCategory: true,
  fileName: true,
  contentType: true,
  sizeBytes: true,
  sha256: true,
  createdAt: true,
} as const;

@Injectable()
export class KycRepository {
  async insertDocument(manager: EntityManager, document: NewKycDocument): Promise<void> {
    await manager.insert(KycDocument, document);
  }

  hasDocuments(manager: EntityManager, userId: string): Promise<boolean> {
    return manager.exists(KycDocument, { where: { userId } });
  }

  /** The user's documents without their content, oldest first. */
  documents(manager: EntityManager, userId: string): Promise<KycDocument[]> {
    return manager.find(KycDocument, {
      select: DOCUMENT_COLUMNS,
      where: { userId },
      order: { createdAt: 'ASC' },
    });
  }

  /** One document with its content, if it is the user's; null otherwise. */
  documentWithContent(
    manager: EntityManager,
    userId: string,
    documentId: string,
  ): Promise<KycDocument | null> {
    return manager.findOne(KycDocument, {
      select: { ...DOCUMENT_COLUMNS, content: true },
      where: { id: documentId, userId },
    });
  }

  /** The first bytes of each of the user's documents, by id: enough to tell their type. */
  async documentHeads(manager: EntityManager, userId: string): Promise<Map<string, Buffer>> {
    const rows = await manager
      .createQueryBuilder(KycDocument, 'd')
      .select('d.id', 'id')
      .addSelect('substring(d.content FROM 1 FOR 16)', 'head')
      .where('d.userId = :userId', { userId })
      .getRawMany<{ id: string; head: Buffer }>();
    return new Map(rows.map((row) => [row.id, row.head]));
  }

  /**
   * Users of every organisation whose form waits for a decision (`states`), the longest waiting first:
   * ordered by kyc_expires_at (set when the form was submitted, indexed), then id; `limit` of them after
   * `after`, and how many wait in all.
   */
  async reviewQueue(
    manager: EntityManager,
    states: readonly string[],
    limit: number,
    after: KycQueueCursor | null,
    /** Only users whose orgUserId starts with it, in every organisation. */
    orgUserIdPrefix?: string,
  ): Promise<{ rows: KycQueueRow[]; total: number }> {
    const like = orgUserIdPrefix ? `${orgUserIdPrefix.replace(/[\\%_]/g, '\\$&')}%` : null;
    const rows = await manager.query<
      {
        org_id: number;
        org_name: string;
        org_user_id: string;
        id: string;
        kyc_expires_at: Date;
        submitted_at: Date | null;
        documents: number;
      }[]
    >(
      `SELECT u.org_id, o.name AS org_name, u.org_user_id, u.id, u.kyc_expires_at,
              (${LAST_SUBMISSION.replace('$org', 'u.org_id').replace('$user', 'u.org_user_id')}) AS submitted_at,
              (SELECT count(*)::int FROM kyc_documents d WHERE d.user_id = u.id) AS documents
         FROM users u JOIN organisations o ON o.id = u.org_id
        WHERE u.kyc_state = ANY($1) AND u.kyc_expires_at IS NOT NULL
          AND ($2::timestamptz IS NULL OR (u.kyc_expires_at, u.id) > ($2::timestamptz, $3::bigint))
          AND ($5::text IS NULL OR u.org_user_id LIKE $5)
        ORDER BY u.kyc_expires_at, u.id
        LIMIT $4`,
      [states, after?.expiresAt ?? null, after?.userId ?? '0', limit, like],
    );
    const [count] = await manager.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM users WHERE kyc_state = ANY($1) AND ($2::text IS NULL OR org_user_id LIKE $2)',
      [states, like],
    );
    return {
      rows: rows.map((row) => ({
        orgId: row.org_id,
        orgName: row.org_name,
        orgUserId: row.org_user_id,
        userId: row.id,
        expiresAt: row.kyc_expires_at,
        submittedAt: row.submitted_at,
        documents: row.documents,
      })),
      total: count?.n ?? 0,
    };
  }

  /** When the user last submitted the KYC form (its KYC_FORM_SUBMITTED event), or null. */
  async lastSubmission(manager: EntityManager, orgId: number, orgUserId: string): Promise<Date | null> {
    const [row] = await manager.query<{ at: Date | null }[]>(
      `SELECT (${LAST_SUBMISSION.replace('$org', '$1').replace('$user', '$2')}) AS at`,
      [orgId, orgUserId],
    );
    return row?.at ?? null;
  }

  async insertReview(manager: EntityManager, review: NewKycReview): Promise<void> {
    await manager.insert(KycReview, review);
  }

  /** The user's most recent review, or null when no operator has decided yet. */
  lastReview(manager: EntityManager, userId: string): Promise<KycReview | null> {
    return manager.findOne(KycReview, { where: { userId }, order: { id: 'DESC' } });
  }

  /**
   * The user's KYC events, newest first, each with the operator's text when it was a decision: on the
   * events_org_user_kyc index, the review by kyc_reviews_event.
   */
  async history(
    manager: EntityManager,
    orgId: number,
    orgUserId: string,
    limit: number,
  ): Promise<KycHistoryItem[]> {
    const rows = await manager
      .createQueryBuilder(Event, 'e')
      .leftJoin(KycReview, 'r', 'r.eventId = e.id')
      .select('e.id', 'id')
      .addSelect('e.eventType', 'event_type')
      .addSelect('e.createdAt', 'created_at')
      .addSelect('r.message', 'message')
      .where('e.orgId = :orgId', { orgId })
      .andWhere("e.entity = 'Users'")
      .andWhere('e.eventType IS NOT NULL')
      .andWhere("e.data->>'orgUserId' = :orgUserId", { orgUserId })
      .orderBy('e.createdAt', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .limit(limit)
      .getRawMany<{ id: string; event_type: string; created_at: Date; message: string | null }>();
    return rows.map((row) => ({
      eventId: row.id,
      eventType: row.event_type,
      at: row.created_at,
      message: row.message,
    }));
  }

  /**
   * Takes the expiry sweep's transaction-scoped advisory lock, or answers false when another instance
   * holds it.
   */
  async tryExpiryLock(manager: EntityManager, key: string): Promise<boolean> {
    const [row] = await manager.query<{ locked: boolean }[]>(
      'SELECT pg_try_advisory_xact_lock($1::bigint) AS locked',
      [key],
    );
    return row?.locked === true;
  }
}
