// Which KYC steps are legal from which state, and which events each step emits (docs/api-guide.md#events,
// docs/decisions.md, "KYC: routes and the state machine"). Pure: the service locks the user, asks here, then
// writes what it is told.
import type { KycState } from '@svc/db';
import type { KycEventType, UserStatus } from '@svc/protocol';

/** What someone asks for: the organisation (upload, form), an operator (review) or the expiry job. */
export type KycStep = 'upload' | 'submit-form' | 'approve' | 'reject' | 'request-information' | 'expire';

/** The transition table: for each step, the states it may start from and the event it emits. */
export const KYC_TRANSITIONS: Readonly<
  Record<KycStep | 'start', { readonly from: readonly KycState[]; readonly to: KycEventType }>
> = {
  // Never asked for directly: the first upload or form of a process starts it (see kycEvents).
  start: { from: ['NONE', 'KYC_REJECTED', 'KYC_EXPIRED'], to: 'KYC_PENDING' },
  upload: { from: ['KYC_PENDING', 'KYC_DOC_UPLOADED', 'KYC_RFI'], to: 'KYC_DOC_UPLOADED' },
  'submit-form': { from: ['KYC_PENDING', 'KYC_DOC_UPLOADED', 'KYC_RFI'], to: 'KYC_FORM_SUBMITTED' },
  approve: { from: ['KYC_FORM_SUBMITTED'], to: 'KYC_COMPLETED' },
  reject: { from: ['KYC_FORM_SUBMITTED'], to: 'KYC_REJECTED' },
  'request-information': { from: ['KYC_FORM_SUBMITTED'], to: 'KYC_RFI' },
  expire: { from: ['KYC_PENDING', 'KYC_DOC_UPLOADED', 'KYC_RFI', 'KYC_FORM_SUBMITTED'], to: 'KYC_EXPIRED' },
};

/** Steps that start the process when it has not started (or ended without approval). */
const STARTING_STEPS: readonly KycStep[] = ['upload', 'submit-form'];

/** The user status each event sets; the others leave it as it is. */
const USER_STATUS_AFTER: Readonly<Partial<Record<KycEventType, UserStatus>>> = {
  KYC_PENDING: 'PENDING',
  KYC_COMPLETED: 'ACTIVE',
  KYC_REJECTED: 'REJECTED',
};

const STEP_NAMES: Readonly<Record<KycStep, string>> = {
  upload: 'upload a document',
  'submit-form': 'submit the form',
  approve: 'approve',
  reject: 'reject',
  'request-information': 'request information',
  expire: 'expire',
};

/** A step the current state does not allow; the api answers 409 and writes nothing. */
export class KycTransitionError extends Error {
  override readonly name = 'KycTransitionError';

  constructor(
    readonly state: KycState,
    readonly step: KycStep,
  ) {
    const allowed = [...KYC_TRANSITIONS[step].from];
    if (STARTING_STEPS.includes(step)) allowed.push(...KYC_TRANSITIONS.start.from);
    super(`cannot ${STEP_NAMES[step]} while KYC is ${state}; this step needs one of ${allowed.join(', ')}`);
  }
}

/**
 * The events `step` emits from `state`, in order: one, or KYC_PENDING and then the step's own when the
 * step starts the process. Throws KycTransitionError when the step is not allowed.
 */
export function kycEvents(state: KycState, step: KycStep): KycEventType[] {
  const transition = KYC_TRANSITIONS[step];
  if (transition.from.includes(state)) return [transition.to];
  if (STARTING_STEPS.includes(step) && KYC_TRANSITIONS.start.from.includes(state)) {
    return [KYC_TRANSITIONS.start.to, transition.to];
  }
  throw new KycTransitionError(state, step);
}

/** States in which something waits for the organisation or an operator, so the expiry clock runs. */
export function expiryClockRuns(state: KycState): boolean {
  return KYC_TRANSITIONS.expire.from.includes(state);
}

/** What an event changes on the user, besides kycState: the user status and the kyc flag. */
export function userChangesAfter(event: KycEventType): { userStatus?: UserStatus; kyc: boolean } {
  const userStatus = USER_STATUS_AFTER[event];
  return { ...(userStatus ? { userStatus } : {}), kyc: event === 'KYC_COMPLETED' };
}
