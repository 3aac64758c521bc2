import type { WebhookEndpoint } from '@svc/db';

/** What the api answers about an organisation's webhook: never the secret. */
export function webhookView(endpoint: WebhookEndpoint) {
  return {
    url: endpoint.url,
    status: endpoint.status,
    challengePassed: endpoint.status === 'ACTIVE',
    challengeError: endpoint.challengeError,
    // A pause that is over is no pause.
    pausedUntil:
      endpoint.pausedUntil && endpoint.pausedUntil.getTime() > Date.now()
        ? endpoint.pausedUntil.toISOString()
        : null,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

export type WebhookView = ReturnType<typeof webhookView>;
