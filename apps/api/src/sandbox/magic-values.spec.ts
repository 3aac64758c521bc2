import { ORDER_REJECTION_REASONS } from '@svc/protocol';

import { ORDER_MAGIC_PREFIXES, sandboxKycStep, sandboxOrderOutcome } from './magic-values.js';

describe('sandbox magic values', () => {
  it('give every order rejection reason, VENUE_ERROR included, a clientOrderId prefix of its own', () => {
    const reasons = Object.values(ORDER_MAGIC_PREFIXES).flatMap((outcome) =>
      'reason' in outcome ? [outcome.reason] : [],
    );
    expect([...reasons].sort()).toEqual([...ORDER_REJECTION_REASONS].sort());
    expect(new Set(reasons).size).toBe(reasons.length);
  });

  it('read a clientOrderId by its first group only, whatever follows', () => {
    expect(sandboxOrderOutcome('00000008-1c2d-4e5f-8a9b-0c1d2e3f4a5b')).toEqual({
      kind: 'reject',
      reason: 'QUOTE_LIMIT',
    });
    expect(sandboxOrderOutcome('00000013-0000-4000-8000-000000000000')).toEqual({
      kind: 'fail',
      reason: 'VENUE_ERROR',
    });
    expect(sandboxOrderOutcome('00000050-0000-4000-8000-000000000000')).toEqual({ kind: 'fill-partially' });
    expect(sandboxOrderOutcome('00000099-0000-4000-8000-000000000000')).toBeNull();
    expect(sandboxOrderOutcome('10000008-0000-4000-8000-000000000000')).toBeNull();
    expect(sandboxOrderOutcome('5b0e4a8e-2c0f-4f57-9a43-0d6f3f1c2a11')).toBeNull();
  });

  it('read an orgUserId by its prefix', () => {
    expect(sandboxKycStep('kyc-approve-42')).toBe('approve');
    expect(sandboxKycStep('kyc-reject-')).toBe('reject');
    expect(sandboxKycStep('kyc-rfi-anna')).toBe('request-information');
    expect(sandboxKycStep('kyc-expire-x')).toBe('expire');
    expect(sandboxKycStep('user-kyc-approve-1')).toBeNull();
    expect(sandboxKycStep('KYC-APPROVE-1')).toBeNull();
  });
});
