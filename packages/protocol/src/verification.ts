// What request and webhook verification share: the typed result, and the timestamp checks.

/** Why a signed request or webhook was refused. */
export type SignatureFailure =
  | 'missing_header'
  | 'malformed_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_far_ahead'
  | 'bad_signature';

export interface VerificationFailure<Reason extends string = SignatureFailure> {
  readonly ok: false;
  readonly reason: Reason;
  /** One sentence for the caller, naming the header or the rule. */
  readonly message: string;
}

export interface VerificationSuccess {
  readonly ok: true;
  /** The verified timestamp, in the unit of its header (seconds for requests, ms for webhooks). */
  readonly timestamp: number;
}

export function failure<Reason extends string>(reason: Reason, message: string): VerificationFailure<Reason> {
  return { ok: false, reason, message };
}

/** A window bound must be a number >= 0; zero means "exactly now", never "unchecked". */
export function checkBound(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`${name} must be a finite number >= 0, got ${String(value)}`);
  }
  return value;
}

/**
 * Checks `timestamp` (an integer in `unit`s) against [now - maxAge, now + maxAhead], bounds included.
 * Returns a failure, or undefined when the timestamp is inside the window.
 */
export function checkWindow(
  header: string,
  timestamp: number,
  now: number,
  maxAge: number,
  maxAhead: number,
  unit: 's' | 'ms',
): VerificationFailure | undefined {
  if (timestamp < now - maxAge) {
    return failure('timestamp_too_old', `${header} is more than ${maxAge} ${unit} in the past`);
  }
  if (timestamp > now + maxAhead) {
    return failure('timestamp_too_far_ahead', `${header} is more than ${maxAhead} ${unit} in the future`);
  }
  return undefined;
}
