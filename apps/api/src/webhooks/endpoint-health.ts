// One word for how an organisation's webhook endpoint fares, decided here alone from stored facts (read by
// WebhookHealthRepository.facts) and shown alike by the api, the dashboard and the console
// (docs/decisions.md, "Webhooks: one health word"). Pure, so the rule is tested alone.

export const ENDPOINT_HEALTH_STATES = ['HEALTHY', 'DEGRADED', 'FAILING', 'NO_ENDPOINT'] as const;
export type EndpointHealthState = (typeof ENDPOINT_HEALTH_STATES)[number];

/** The attempts the rule looks at: the latest of the endpoint's registration, in the last 24 hours. */
export const RECENT_ATTEMPTS = 20;
/** Failed attempts in a row, with none delivered since, from which an endpoint is FAILING. */
export const FAILING_STREAK = 3;
/** How far back the rule looks (ms). */
export const HEALTH_PERIOD_MS = 24 * 3600_000;

/** An attempt that failed, as the health shows it. */
export interface AttemptError {
  readonly at: Date;
  readonly errorKind: string | null;
  readonly statusCode: number | null;
  /** The first bytes of the answer, or the error's text. */
  readonly response: string;
}

/** What the rule reads: the endpoint's registration and what its latest attempts and events came to. */
export interface HealthFacts {
  /** The registration's status (ACTIVE, CHALLENGE_FAILED); null when none is registered. */
  readonly endpointStatus: string | null;
  readonly pausedUntil: Date | null;
  /** Attempts looked at: at most RECENT_ATTEMPTS, since the registration and in the last 24 hours. */
  readonly recentAttempts: number;
  /** Of those, how many failed. */
  readonly recentFailures: number;
  /** Of those, the failed ones since the latest delivered one (all of them when none was delivered). */
  readonly consecutiveFailures: number;
  /** The organisation's events FAILED in the last 24 hours and still FAILED (a recovered one is not). */
  readonly failedEvents: number;
  /** The latest failed attempt of those looked at. */
  readonly lastError: AttemptError | null;
}

export interface EndpointHealth {
  readonly state: EndpointHealthState;
  /** Why, in one sentence a person reads. */
  readonly reason: string;
  readonly recentAttempts: number;
  readonly recentFailures: number;
  readonly consecutiveFailures: number;
  readonly failedEvents: number;
  readonly lastError: AttemptError | null;
}

/**
 * - NO_ENDPOINT: none is registered, or its challenge failed: no attempt is made, events are SKIPPED.
 * - FAILING: the latest FAILING_STREAK attempts or more all failed, none delivered since.
 * - DEGRADED: not failing, but an attempt failed among the recent ones, an event of the last 24 hours is
 *   still FAILED (lost until recovered), or the receiver asked for time (a pause in force).
 * - HEALTHY: none of these (also when nothing was sent lately).
 */
export function endpointHealth(facts: HealthFacts, now: Date): EndpointHealth {
  const figures = {
    recentAttempts: facts.recentAttempts,
    recentFailures: facts.recentFailures,
    consecutiveFailures: facts.consecutiveFailures,
    failedEvents: facts.failedEvents,
    lastError: facts.lastError,
  };
  const health = (state: EndpointHealthState, reason: string): EndpointHealth => ({
    state,
    reason,
    ...figures,
  });
  if (facts.endpointStatus === null) return health('NO_ENDPOINT', 'No webhook is registered.');
  if (facts.endpointStatus !== 'ACTIVE') {
    return health('NO_ENDPOINT', 'The webhook did not pass its challenge: no event is sent to it.');
  }
  if (facts.consecutiveFailures >= FAILING_STREAK) {
    return health('FAILING', `The last ${facts.consecutiveFailures} attempts failed.`);
  }
  const signs = [
    facts.recentFailures > 0 && `${facts.recentFailures} of the last ${facts.recentAttempts} attempts failed`,
    facts.failedEvents > 0 &&
      `${facts.failedEvents} ${facts.failedEvents === 1 ? 'event' : 'events'} of the last 24 hours failed for good`,
    facts.pausedUntil !== null &&
      facts.pausedUntil.getTime() > now.getTime() &&
      `the receiver asked for time until ${facts.pausedUntil.toISOString()}`,
  ].filter((sign): sign is string => typeof sign === 'string');
  if (signs.length > 0) return health('DEGRADED', `${capitalise(signs.join('; '))}.`);
  return health(
    'HEALTHY',
    facts.recentAttempts === 0
      ? 'Nothing was sent in the last 24 hours.'
      : `The last ${facts.recentAttempts === 1 ? 'attempt was' : `${facts.recentAttempts} attempts were`} delivered.`,
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
