import type { KycDocument, User } from '@svc/db';

/** A stored document as the organisation sees it: everything but the content. */
export function documentView(document: KycDocument) {
  return {
    id: document.id,
    docCategory: document.docCategory,
    docSubCategory: document.docSubCategory,
    fileName: document.fileName,
    contentType: document.contentType,
    sizeBytes: document.sizeBytes,
    sha256: document.sha256,
    createdAt: document.createdAt.toISOString(),
  };
}

/** The operator's last decision on the user's KYC, with the text the organisation should act on. */
export interface KycReview {
  readonly eventType: 'KYC_COMPLETED' | 'KYC_REJECTED' | 'KYC_RFI';
  readonly message: string | null;
  readonly at: string;
}

/** Where a user's KYC stands: state, documents (without content), the form, the last review. */
export function kycView(user: User, documents: readonly KycDocument[], review: KycReview | null) {
  return {
    orgUserId: user.orgUserId,
    orgId: user.orgId,
    kycState: user.kycState,
    kyc: user.kyc,
    userStatus: user.userStatus,
    /** When the current step expires unless the process moves on; null when nothing is waiting. */
    expiresAt: user.kycExpiresAt?.toISOString() ?? null,
    documents: documents.map(documentView),
    form: user.kycForm,
    review,
  };
}

export type KycView = ReturnType<typeof kycView>;
