// @svc/sdk: the typed client of the platform API and the webhook receiver helpers.
export { SvcClient, SDK_VERSION } from './client.js';
export type { ApiKeyOptions, CommonOptions, OAuthOptions, SvcClientOptions } from './client.js';
export * from './errors.js';
export { PageRequest } from './pagination.js';
export { DEFAULT_IDLE_TIMEOUT_MS, EventStreamResource } from './resources/event-stream.js';
export type { EventStreamOptions, ReconnectInfo, StreamedEvent } from './resources/event-stream.js';
export { DEFAULT_RETRY_POLICY } from './retry-policy.js';
export type { RetryPolicy } from './retry-policy.js';
export { DEFAULT_TIMEOUT_MS } from './transport.js';
export type { ApiRequest, FetchLike, QueryValue, RequestBody, RequestOptions } from './transport.js';
export type * from './types.js';
export * from './webhooks.js';
export { createWebhookHandler, MemoryEventIdStore } from './webhook-handler.js';
export type {
  EventIdStore,
  WebhookContext,
  WebhookHandler,
  WebhookHandlerOptions,
  WebhookResponse,
} from './webhook-handler.js';
export {
  isEntityEvent,
  isKycEvent,
  type ActionsEvent,
  type EntityEvent,
  type KycEvent,
  type OrdersEvent,
  type SystemInformationEvent,
  type UsersEvent,
} from '@svc/protocol';
