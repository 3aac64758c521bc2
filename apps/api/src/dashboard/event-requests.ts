// An event's delivery attempts as the receiver got them (docs/dashboard.md#events): each attempt's body is
// rebuilt with the worker's own function (eventBodyText) from the event's row and the attempt's numRetries
// and updatedAt, and its headers with the sender's (webhookRequestHeaders) at the attempt's start, which is
// its svc-timestamp. The signature is made with the secret stored now, so it is shown only when the webhook
// has not been registered again since the attempt (docs/decisions.md, "Dashboard: events and deliveries").
import type { WebhookAttempt } from '@svc/db';
import { eventBodyText } from '@svc/protocol';
import { webhookRequestHeaders } from '@svc/webhook-sender';

import type { EventLogRow } from '../event-log/event-log.repository.js';

/** The organisation's endpoint now: its secret in clear and when it was last registered. */
export interface SigningEndpoint {
  readonly secret: string;
  readonly registeredAt: Date;
}

export interface AttemptRequest {
  /** The body sent, byte for byte; null when the attempt predates the recorded updatedAt. */
  readonly body: string | null;
  /** The headers sent, in order; svc-signature left out when it cannot be shown. */
  readonly headers: readonly (readonly [string, string])[];
  /** Why the signature is not shown, if it is not. */
  readonly signatureNote: string | null;
}

const SIGNATURE = 'svc-signature';

export function attemptRequest(
  event: EventLogRow,
  attempt: WebhookAttempt,
  endpoint: SigningEndpoint | null,
): AttemptRequest {
  if (attempt.eventUpdatedAt === null) {
    return {
      body: null,
      headers: [],
      signatureNote: 'This attempt was made before attempts recorded what their body carried.',
    };
  }
  const body = eventBodyText(
    {
      orgId: event.orgId,
      entity: event.entity,
      eventType: event.eventType,
      numRetries: attempt.numRetries,
      createdAt: event.createdAt,
      updatedAt: attempt.eventUpdatedAt,
    },
    event.data,
  );
  const at = attempt.attemptedAt.getTime();
  // The secret is not needed for any header but the signature; any string signs the others alike.
  const signable = endpoint !== null && endpoint.registeredAt.getTime() <= at;
  const headers = Object.entries(
    webhookRequestHeaders({ body, secret: signable ? endpoint.secret : '-', eventId: event.id }, at),
  );
  if (signable) return { body, headers, signatureNote: null };
  return {
    body,
    headers: headers.filter(([name]) => name !== SIGNATURE),
    signatureNote:
      endpoint === null
        ? 'svc-signature is not shown: no webhook is registered now, so its secret is gone.'
        : `svc-signature is not shown: the webhook was registered again at ${endpoint.registeredAt.toISOString()}, after this attempt, so the secret stored now may not be the one it was signed with.`,
  };
}
