// The sandbox's magic values (docs/testing.md#magic-values): a clientOrderId or an orgUserId that makes a
// sandbox organisation's order or KYC end a chosen way. Pure; only a sandbox organisation asks.
import type { OrderRejectionReason } from '@svc/protocol';

/** What a magic clientOrderId makes of a MARKET order. */
export type SandboxOrderOutcome =
  | { readonly kind: 'reject'; readonly reason: Exclude<OrderRejectionReason, 'VENUE_ERROR'> }
  | { readonly kind: 'fail'; readonly reason: 'VENUE_ERROR' }
  /** Honoured once orders can rest; a MARKET order still fills whole. */
  | { readonly kind: 'fill-partially' };

/**
 * The first group of a clientOrderId (a UUID, so the rest stays free for new keys) and its outcome. The
 * numbers are fixed: a reason added to ORDER_REJECTION_REASONS gets a new one, never another's.
 */
export const ORDER_MAGIC_PREFIXES: Readonly<Record<string, SandboxOrderOutcome>> = {
  '00000001-': { kind: 'reject', reason: 'USER_NOT_ACTIVE' },
  '00000002-': { kind: 'reject', reason: 'KYC_NOT_COMPLETED' },
  '00000003-': { kind: 'reject', reason: 'TNC_NOT_ACCEPTED' },
  '00000004-': { kind: 'reject', reason: 'ASSET_NOT_ENABLED' },
  '00000005-': { kind: 'reject', reason: 'ASSET_DISABLED' },
  '00000006-': { kind: 'reject', reason: 'PRICE_UNAVAILABLE' },
  '00000007-': { kind: 'reject', reason: 'AMOUNT_TOO_SMALL' },
  '00000008-': { kind: 'reject', reason: 'QUOTE_LIMIT' },
  '00000009-': { kind: 'reject', reason: 'TOTAL_LIMIT' },
  '00000010-': { kind: 'reject', reason: 'INSUFFICIENT_HOLDINGS' },
  '00000011-': { kind: 'reject', reason: 'TOTAL_EXPOSURE' },
  '00000012-': { kind: 'reject', reason: 'ASSET_EXPOSURE' },
  '00000013-': { kind: 'fail', reason: 'VENUE_ERROR' },
  '00000014-': { kind: 'reject', reason: 'INSUFFICIENT_LIQUIDITY' },
  '00000050-': { kind: 'fill-partially' },
};

/** The outcome a clientOrderId (lowercase, as the service keeps it) asks for, or null for an ordinary one. */
export function sandboxOrderOutcome(clientOrderId: string): SandboxOrderOutcome | null {
  return ORDER_MAGIC_PREFIXES[clientOrderId.slice(0, 9)] ?? null;
}

/** What the sandbox does with a user's KYC once its form arrives, as an operator or the expiry job would. */
export type SandboxKycStep = 'approve' | 'reject' | 'request-information' | 'expire';

/** orgUserId prefixes and the step each makes KYC take on its own after every form submission. */
export const KYC_MAGIC_PREFIXES: Readonly<Record<string, SandboxKycStep>> = {
  'kyc-approve-': 'approve',
  'kyc-reject-': 'reject',
  'kyc-rfi-': 'request-information',
  'kyc-expire-': 'expire',
};

/** The step an orgUserId asks for, or null. */
export function sandboxKycStep(orgUserId: string): SandboxKycStep | null {
  const prefix = Object.keys(KYC_MAGIC_PREFIXES).find((candidate) => orgUserId.startsWith(candidate));
  return prefix === undefined ? null : (KYC_MAGIC_PREFIXES[prefix] ?? null);
}

/** The text the sandbox's decisions carry, as an operator's would. */
export const SANDBOX_KYC_TEXT = {
  reject: 'Rejected by the sandbox: the orgUserId starts with kyc-reject-',
  'request-information': 'The sandbox asks for more information: the orgUserId starts with kyc-rfi-',
} as const;
