// Where an event's webhook delivery stands, in words a person reads (docs/decisions.md, "Webhooks: an
// event's delivery state"): the stored status alone says PENDING both for an event waiting for its first
// attempt and for one whose attempts failed and whose next retry is scheduled. Pure, tested alone.
import type { EventStatus } from '@svc/db';

export const DELIVERY_STATES = ['PENDING', 'RETRYING', 'DELIVERED', 'FAILED', 'SKIPPED'] as const;
export type DeliveryStateName = (typeof DELIVERY_STATES)[number];

/** The event's stored delivery columns. */
export interface DeliveryFacts {
  readonly status: EventStatus;
  /** The numRetries of its next attempt while PENDING; of its last one after. */
  readonly numRetries: number;
  readonly nextAttemptAt: Date;
}

export interface DeliveryState {
  /**
   * PENDING: its first attempt is still to be made; RETRYING: an attempt failed and the next is scheduled;
   * DELIVERED; FAILED: its retries or its window are over; SKIPPED: no ACTIVE webhook when its turn came.
   */
  readonly state: DeliveryStateName;
  /** When the worker makes its next attempt (PENDING or RETRYING); null once it has no more. */
  readonly nextAttemptAt: Date | null;
}

export function deliveryState(facts: DeliveryFacts): DeliveryState {
  if (facts.status !== 'PENDING') return { state: facts.status, nextAttemptAt: null };
  // A failed attempt is what raises a PENDING event's numRetries (the retry it schedules carries it).
  return { state: facts.numRetries > 0 ? 'RETRYING' : 'PENDING', nextAttemptAt: facts.nextAttemptAt };
}
