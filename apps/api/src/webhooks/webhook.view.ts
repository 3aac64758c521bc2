import type { WebhookEndpoint } from '@svc/db';

import type { EndpointHealth } from './endpoint-health.js';

/** What the api answers about an organisation's webhook: never the secret. */
export function webhookView(endpoint: WebhookEndpoint, health: EndpointHealth) {
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
    health: healthView(health),
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

export function healthView(health: EndpointHealth) {
  const error = health.lastError;
  return {
    state: health.state,
    reason: health.reason,
    recentAttempts: health.recentAttempts,
    recentFailures: health.recentFailures,
    consecutiveFailures: health.consecutiveFailures,
    failedEvents: health.failedEvents,
    lastError: error && {
      at: error.at.toISOString(),
      errorKind: error.errorKind,
      statusCode: error.statusCode,
      response: error.response,
    },
  };
}

export type WebhookView = ReturnType<typeof webhookView>;
export type HealthView = ReturnType<typeof healthView>;
