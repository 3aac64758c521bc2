import type { WebhookAttempt } from '@svc/db';

/** One delivery attempt as the organisation sees it. */
export function deliveryView(attempt: WebhookAttempt) {
  return {
    eventId: attempt.eventId,
    url: attempt.url,
    numRetries: attempt.numRetries,
    manual: attempt.manual,
    attemptedAt: attempt.attemptedAt.toISOString(),
    durationMs: attempt.durationMs,
    delivered: attempt.delivered,
    statusCode: attempt.statusCode,
    errorKind: attempt.errorKind,
    response: attempt.response,
  };
}

export type DeliveryView = ReturnType<typeof deliveryView>;
