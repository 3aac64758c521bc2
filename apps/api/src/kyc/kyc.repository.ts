// Every query of KYC's own tables, kyc_documents and kyc_reviews, and the expiry sweep's lock. The
// user's KYC state lives on the users table, written through the users feature's repository.
import { Injectable } from '@nestjs/common';
import { KycDocument, KycReview } from '@svc/db';
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

export type NewKycReview = Pick<
  KycReview,
  'orgId' | 'userId' | 'eventType' | 'message' | 'reviewer' | 'eventId'
>;

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

  async insertReview(manager: EntityManager, review: NewKycReview): Promise<void> {
    await manager.insert(KycReview, review);
  }

  /** The user's most recent review, or null when no operator has decided yet. */
  lastReview(manager: EntityManager, userId: string): Promise<KycReview | null> {
    return manager.findOne(KycReview, { where: { userId }, order: { id: 'DESC' } });
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
