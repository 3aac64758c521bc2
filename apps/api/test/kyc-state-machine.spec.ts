// The KYC state machine on its own: every state against every step, written out once more by hand, and
// the expiry scheduler's timer.
import type { KycState } from '@svc/db';

import type { AppConfig } from '../src/config/config.js';
import { KycExpiryScheduler } from '../src/kyc/kyc-expiry.scheduler.js';
import {
  expiryClockRuns,
  kycEvents,
  KycTransitionError,
  type KycStep,
  userChangesAfter,
} from '../src/kyc/kyc-state-machine.js';
import type { KycService } from '../src/kyc/kyc.service.js';

const STATES: readonly KycState[] = [
  'NONE',
  'KYC_PENDING',
  'KYC_DOC_UPLOADED',
  'KYC_FORM_SUBMITTED',
  'KYC_COMPLETED',
  'KYC_REJECTED',
  'KYC_RFI',
  'KYC_EXPIRED',
];
const STEPS: readonly KycStep[] = [
  'upload',
  'submit-form',
  'approve',
  'reject',
  'request-information',
  'expire',
];

const P = 'KYC_PENDING';
/** state -> step -> the events emitted, in order; absent: refused. */
const EXPECTED: Record<KycState, Partial<Record<KycStep, string[]>>> = {
  NONE: { upload: [P, 'KYC_DOC_UPLOADED'], 'submit-form': [P, 'KYC_FORM_SUBMITTED'] },
  KYC_PENDING: {
    upload: ['KYC_DOC_UPLOADED'],
    'submit-form': ['KYC_FORM_SUBMITTED'],
    expire: ['KYC_EXPIRED'],
  },
  KYC_DOC_UPLOADED: {
    upload: ['KYC_DOC_UPLOADED'],
    'submit-form': ['KYC_FORM_SUBMITTED'],
    expire: ['KYC_EXPIRED'],
  },
  KYC_FORM_SUBMITTED: {
    approve: ['KYC_COMPLETED'],
    reject: ['KYC_REJECTED'],
    'request-information': ['KYC_RFI'],
    expire: ['KYC_EXPIRED'],
  },
  KYC_COMPLETED: {},
  KYC_REJECTED: { upload: [P, 'KYC_DOC_UPLOADED'], 'submit-form': [P, 'KYC_FORM_SUBMITTED'] },
  KYC_RFI: { upload: ['KYC_DOC_UPLOADED'], 'submit-form': ['KYC_FORM_SUBMITTED'], expire: ['KYC_EXPIRED'] },
  KYC_EXPIRED: { upload: [P, 'KYC_DOC_UPLOADED'], 'submit-form': [P, 'KYC_FORM_SUBMITTED'] },
};

describe('KYC state machine', () => {
  const cases = STATES.flatMap((state) => STEPS.map((step) => [state, step, EXPECTED[state][step]] as const));

  it.each(cases)('%s, %s -> %j', (state, step, expected) => {
    if (expected) {
      expect(kycEvents(state, step)).toEqual(expected);
    } else {
      expect(() => kycEvents(state, step)).toThrow(KycTransitionError);
    }
  });

  it('names the state, the step and the states the step needs', () => {
    expect(() => kycEvents('KYC_COMPLETED', 'upload')).toThrow(
      'cannot upload a document while KYC is KYC_COMPLETED; this step needs one of KYC_PENDING, KYC_DOC_UPLOADED, KYC_RFI, NONE, KYC_REJECTED, KYC_EXPIRED',
    );
    expect(() => kycEvents('KYC_RFI', 'approve')).toThrow(
      'cannot approve while KYC is KYC_RFI; this step needs one of KYC_FORM_SUBMITTED',
    );
  });

  it('runs the expiry clock exactly in the states the sweep may expire', () => {
    expect(STATES.filter(expiryClockRuns)).toEqual([
      'KYC_PENDING',
      'KYC_DOC_UPLOADED',
      'KYC_FORM_SUBMITTED',
      'KYC_RFI',
    ]);
  });

  it('sets kyc only at KYC_COMPLETED, and the user status at PENDING, COMPLETED and REJECTED', () => {
    expect(userChangesAfter('KYC_PENDING')).toEqual({ kyc: false, userStatus: 'PENDING' });
    expect(userChangesAfter('KYC_COMPLETED')).toEqual({ kyc: true, userStatus: 'ACTIVE' });
    expect(userChangesAfter('KYC_REJECTED')).toEqual({ kyc: false, userStatus: 'REJECTED' });
    for (const event of ['KYC_DOC_UPLOADED', 'KYC_FORM_SUBMITTED', 'KYC_RFI', 'KYC_EXPIRED'] as const) {
      expect(userChangesAfter(event)).toEqual({ kyc: false });
    }
  });
});

describe('KYC expiry scheduler', () => {
  const logger = { info: jest.fn(), warn: jest.fn() };

  function scheduler(seconds: number, expireDue: () => Promise<number | null>) {
    const kyc = { expireDue: jest.fn(expireDue) };
    const config = { kycExpirySweepSeconds: seconds } as AppConfig;
    return {
      kyc,
      scheduler: new KycExpiryScheduler(kyc as unknown as KycService, config, logger as never),
    };
  }

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sweeps every interval until destroyed', async () => {
    const { kyc, scheduler: subject } = scheduler(60, () => Promise.resolve(2));
    subject.onModuleInit();
    await jest.advanceTimersByTimeAsync(59_999);
    expect(kyc.expireDue).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(kyc.expireDue).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(kyc.expireDue).toHaveBeenCalledTimes(2);
    await subject.onModuleDestroy();
    await jest.advanceTimersByTimeAsync(600_000);
    expect(kyc.expireDue).toHaveBeenCalledTimes(2);
  });

  it('starts no timer when the interval is 0', async () => {
    const { kyc, scheduler: subject } = scheduler(0, () => Promise.resolve(0));
    subject.onModuleInit();
    await jest.advanceTimersByTimeAsync(600_000);
    expect(kyc.expireDue).not.toHaveBeenCalled();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('never overlaps two sweeps, logs a failure and keeps going; shutdown waits for the sweep in flight', async () => {
    let finish: (value: number) => void = () => undefined;
    const calls: Promise<number>[] = [
      Promise.reject(new Error('database down')),
      new Promise<number>((resolve) => (finish = resolve)),
    ];
    const { kyc, scheduler: subject } = scheduler(1, () => calls.shift() ?? Promise.resolve(0));
    subject.onModuleInit();
    await jest.advanceTimersByTimeAsync(1000);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error) as Error }),
      'KYC expiry sweep failed',
    );
    await jest.advanceTimersByTimeAsync(3000);
    expect(kyc.expireDue).toHaveBeenCalledTimes(2);
    let destroyed = false;
    const destroying = subject.onModuleDestroy().then(() => (destroyed = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(destroyed).toBe(false);
    finish(1);
    await destroying;
    expect(logger.info).toHaveBeenCalledWith({ expired: 1 }, 'KYC processes expired');
  });
});
