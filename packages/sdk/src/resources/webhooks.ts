// The client's `webhooks` group: the organisation's endpoint, redeliveries, recoveries and the delivery log.
import { PageRequest } from '../pagination.js';
import type { RequestOptions } from '../transport.js';
import type {
  DeletedWebhook,
  ListDeliveriesParams,
  Page,
  PageParams,
  RecoverWebhooksParams,
  Redelivery,
  RegisterWebhookParams,
  Webhook,
  WebhookDelivery,
  WebhookRecovery,
} from '../types.js';
import { path, pick, requireId, type Call } from './call.js';

export class DeliveriesResource {
  constructor(private readonly call: Call) {}

  /** The attempt log, oldest first. */
  list(params: ListDeliveriesParams = {}, options?: RequestOptions): PageRequest<WebhookDelivery> {
    return new PageRequest(
      (page: PageParams) =>
        this.call<Page<WebhookDelivery>>(
          {
            method: 'GET',
            path: path('webhooks', 'deliveries'),
            query: {
              eventId: params.eventId,
              delivered: params.delivered,
              limit: page.limit,
              cursor: page.cursor,
            },
            idempotent: true,
          },
          options,
        ),
      pick(params),
    );
  }
}

export class WebhooksResource {
  readonly deliveries: DeliveriesResource;

  constructor(private readonly call: Call) {
    this.deliveries = new DeliveriesResource(call);
  }

  /**
   * Registers the organisation's endpoint, or changes its url or secret. The api sends the new endpoint
   * the challenge, signed with the new secret, before it answers. A change is made only when the challenge
   * passes: otherwise the ACTIVE endpoint is kept and this throws SvcConflictError with the reason. A
   * first registration whose challenge fails is stored and answered with `challengePassed` false.
   */
  register(params: RegisterWebhookParams, options?: RequestOptions): Promise<Webhook> {
    return this.call(
      {
        method: 'POST',
        path: path('webhooks'),
        body: { kind: 'json', value: { url: params.url, secret: params.secret } },
        idempotent: false,
      },
      options,
    );
  }

  get(options?: RequestOptions): Promise<Webhook> {
    return this.call({ method: 'GET', path: path('webhooks'), idempotent: true }, options);
  }

  delete(options?: RequestOptions): Promise<DeletedWebhook> {
    return this.call({ method: 'DELETE', path: path('webhooks'), idempotent: false }, options);
  }

  /** One more attempt of a delivered, failed or skipped event inside its 24 h window. */
  redeliver(eventId: string, options?: RequestOptions): Promise<Redelivery> {
    return this.call(
      {
        method: 'POST',
        path: path('webhooks', 'events', requireId('eventId', eventId), 'redeliver'),
        idempotent: false,
      },
      options,
    );
  }

  /**
   * Redelivers every FAILED event created since `since` and still inside its 24 h window, once each, in
   * the background; follow it with {@link getRecovery}. Throws SvcConflictError while another recovery
   * runs, or without an ACTIVE endpoint.
   */
  recover(params: RecoverWebhooksParams, options?: RequestOptions): Promise<WebhookRecovery> {
    return this.call(
      {
        method: 'POST',
        path: path('webhooks', 'recover'),
        body: { kind: 'json', value: { since: params.since } },
        idempotent: false,
      },
      options,
    );
  }

  /** How far a recovery got. */
  getRecovery(id: string, options?: RequestOptions): Promise<WebhookRecovery> {
    return this.call(
      { method: 'GET', path: path('webhooks', 'recover', requireId('id', id)), idempotent: true },
      options,
    );
  }
}
