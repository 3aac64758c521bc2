// The typed client of the organisation endpoints. Authenticates with the API key and secret (every request
// signed, spec 5.1) or with OAuth client credentials (spec 5.2); see README.md.
import { createHash, randomUUID } from 'node:crypto';

import { TokenAuthenticator, type OAuthCredentials } from './oauth-token.js';
import { PageRequest } from './pagination.js';
import { RequestSigner } from './request-signer.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import {
  DEFAULT_TIMEOUT_MS,
  Transport,
  type ApiRequest,
  type FetchLike,
  type RequestOptions,
} from './transport.js';
import type {
  CreateOrderParams,
  CreateUserParams,
  DeletedWebhook,
  JsonObject,
  KycForm,
  KycStatus,
  ListDeliveriesParams,
  ListOrdersParams,
  ListUsersParams,
  Order,
  Organisation,
  Page,
  PageParams,
  Positions,
  Redelivery,
  RegisterWebhookParams,
  UpdateUserParams,
  UploadKycDocumentParams,
  UserView,
  Webhook,
  WebhookDelivery,
} from './types.js';

export const SDK_VERSION = '0.1.0';

export interface CommonOptions {
  /** The api's address, e.g. https://api.example.com (a trailing slash is ignored). */
  readonly baseUrl: string;
  /** Per attempt, from sending to the whole answer. Default 30 s. */
  readonly timeoutMs?: number;
  /** Retries of what is safe to repeat. Default 2; 0 turns retries off. */
  readonly maxRetries?: number;
  /** Backoff tuning; see {@link RetryPolicy}. */
  readonly retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /** Your own fetch (proxies, tracing, tests). Default the global fetch. */
  readonly fetch?: FetchLike;
  /** Appended to the User-Agent header. */
  readonly appInfo?: string;
  /** The clock in ms, for signing and token expiry. Default Date.now (tests move it). */
  readonly now?: () => number;
}

export interface ApiKeyOptions extends CommonOptions {
  readonly apiKey: string;
  readonly apiSecret: string;
}

export interface OAuthOptions extends CommonOptions, OAuthCredentials {}

export type SvcClientOptions = ApiKeyOptions | OAuthOptions;

export class SvcClient {
  readonly org: OrgResource;
  readonly users: UsersResource;
  readonly kyc: KycResource;
  readonly orders: OrdersResource;
  readonly positions: PositionsResource;
  readonly webhooks: WebhooksResource;
  readonly oauth: OAuthResource;
  private readonly transport: Transport;

  constructor(options: SvcClientOptions) {
    const baseUrl = checkBaseUrl(options.baseUrl);
    const now = options.now ?? Date.now;
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    const maxRetries = options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries;
    checkNonNegative('maxRetries', maxRetries, true);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    checkNonNegative('timeoutMs', timeoutMs, false);
    this.transport = new Transport({
      baseUrl,
      fetch: fetchImpl,
      timeoutMs,
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry, maxRetries },
      userAgent: `svc-sdk-node/${SDK_VERSION} node/${process.versions.node}${
        options.appInfo ? ` ${options.appInfo}` : ''
      }`,
      now,
    });
    if ('apiKey' in options && 'clientId' in options) {
      throw new TypeError('give either apiKey and apiSecret, or clientId, clientSecret and scopes, not both');
    }
    if ('apiKey' in options) {
      requireText('apiKey', options.apiKey);
      requireText('apiSecret', options.apiSecret);
      this.transport.useAuthenticator(new RequestSigner(options, now));
    } else if ('clientId' in options) {
      requireText('clientId', options.clientId);
      requireText('clientSecret', options.clientSecret);
      this.transport.useAuthenticator(new TokenAuthenticator(options, this.transport, now));
    } else {
      throw new TypeError(
        'credentials are missing: give apiKey and apiSecret, or clientId, clientSecret and scopes',
      );
    }
    const call = <T>(request: ApiRequest, callOptions?: RequestOptions) =>
      this.transport.request<T>(request, callOptions);
    this.org = new OrgResource(call);
    this.users = new UsersResource(call);
    this.kyc = new KycResource(call);
    this.orders = new OrdersResource(call);
    this.positions = new PositionsResource(call);
    this.webhooks = new WebhooksResource(call);
    this.oauth = new OAuthResource(call);
  }

  /**
   * A request to an endpoint this client has no method for yet, authenticated, retried and answered like
   * the others (`idempotent` says whether it may be repeated).
   */
  request<T>(request: ApiRequest, options?: RequestOptions): Promise<T> {
    return this.transport.request<T>(request, options);
  }
}

type Call = <T>(request: ApiRequest, options?: RequestOptions) => Promise<T>;

/** `/api/v1/user/{id}/…/`: each segment escaped, trailing slash as the spec writes paths. */
function path(...segments: string[]): string {
  return `/api/v1/${segments.map((segment) => encodeURIComponent(segment)).join('/')}/`;
}

function requireId(name: string, value: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string`);
  return value;
}

class OrgResource {
  constructor(private readonly call: Call) {}

  /** GET /api/v1/org/: the caller's organisation. Needs BASE_MODULE:READ with a token. */
  get(options?: RequestOptions): Promise<Organisation> {
    return this.call({ method: 'GET', path: path('org'), idempotent: true }, options);
  }
}

class UsersResource {
  constructor(private readonly call: Call) {}

  /** POST /api/v1/user/ (spec 4.3). Not retried: a repeat after a lost answer would be a 409. */
  create(params: CreateUserParams, options?: RequestOptions): Promise<UserView> {
    const body = { orgUserId: params.orgUserId, kyc: params.kyc, tnc: params.tnc };
    return this.call(
      { method: 'POST', path: path('user'), body: { kind: 'json', value: body }, idempotent: false },
      options,
    );
  }

  get(orgUserId: string, options?: RequestOptions): Promise<UserView> {
    return this.call(
      { method: 'GET', path: path('user', requireId('orgUserId', orgUserId)), idempotent: true },
      options,
    );
  }

  /** Records the terms-and-conditions flag. */
  update(orgUserId: string, params: UpdateUserParams, options?: RequestOptions): Promise<UserView> {
    return this.call(
      {
        method: 'PATCH',
        path: path('user', requireId('orgUserId', orgUserId)),
        body: { kind: 'json', value: { tnc: params.tnc } },
        idempotent: false,
      },
      options,
    );
  }

  /** One page when awaited; every user when iterated with `for await`. Creation order. */
  list(params: ListUsersParams = {}, options?: RequestOptions): PageRequest<UserView> {
    return new PageRequest(
      (page: PageParams) =>
        this.call<Page<UserView>>(
          {
            method: 'GET',
            path: path('user'),
            query: {
              userStatus: params.userStatus,
              kyc: params.kyc,
              tnc: params.tnc,
              limit: page.limit,
              cursor: page.cursor,
            },
            idempotent: true,
          },
          options,
        ),
      { ...pick(params) },
    );
  }
}

class KycResource {
  constructor(private readonly call: Call) {}

  get(orgUserId: string, options?: RequestOptions): Promise<KycStatus> {
    return this.call(
      { method: 'GET', path: path('user', requireId('orgUserId', orgUserId), 'kyc'), idempotent: true },
      options,
    );
  }

  /**
   * POST .../kyc/documents/ (multipart, field `file`). The file's SHA-256 goes in the signed query, so
   * the signature covers the file and the api checks it arrived intact.
   */
  async uploadDocument(
    orgUserId: string,
    params: UploadKycDocumentParams,
    options?: RequestOptions,
  ): Promise<KycStatus> {
    const bytes =
      params.file instanceof Uint8Array ? params.file : new Uint8Array(await params.file.arrayBuffer());
    const type =
      params.contentType ??
      (params.file instanceof Blob && params.file.type !== ''
        ? params.file.type
        : 'application/octet-stream');
    const form = new FormData();
    form.append('docCategory', params.docCategory);
    form.append('docSubCategory', params.docSubCategory);
    form.append('file', new Blob([bytes], { type }), params.fileName ?? 'document');
    return this.call(
      {
        method: 'POST',
        path: path('user', requireId('orgUserId', orgUserId), 'kyc', 'documents'),
        query: { sha256: createHash('sha256').update(bytes).digest('hex') },
        body: { kind: 'multipart', form },
        idempotent: false,
      },
      options,
    );
  }

  submitForm(orgUserId: string, form: KycForm, options?: RequestOptions): Promise<KycStatus> {
    return this.call(
      {
        method: 'POST',
        path: path('user', requireId('orgUserId', orgUserId), 'kyc', 'form'),
        body: { kind: 'json', value: form },
        idempotent: false,
      },
      options,
    );
  }
}

class OrdersResource {
  constructor(private readonly call: Call) {}

  /**
   * POST /api/v1/orders/: a market order. A failed business check is not an error: the order comes back
   * with status REJECTED and its rejectionReason. Retried like a read: `clientOrderId` (generated when
   * left out) makes a repeat answer the same order.
   */
  create(params: CreateOrderParams, options?: RequestOptions): Promise<Order> {
    const hasQuantity = params.quantity !== undefined;
    const hasQuote = params.quoteQuantity !== undefined;
    if (hasQuantity === hasQuote) {
      throw new TypeError('give exactly one of quantity and quoteQuantity');
    }
    const body = {
      orgUserId: params.orgUserId,
      clientOrderId: params.clientOrderId ?? randomUUID(),
      symbol: params.symbol,
      side: params.side,
      type: params.type,
      ...(hasQuantity ? { quantity: params.quantity } : { quoteQuantity: params.quoteQuantity }),
    };
    return this.call(
      { method: 'POST', path: path('orders'), body: { kind: 'json', value: body }, idempotent: true },
      options,
    );
  }

  get(id: number | string, options?: RequestOptions): Promise<Order> {
    return this.call({ method: 'GET', path: path('orders', String(id)), idempotent: true }, options);
  }

  list(params: ListOrdersParams = {}, options?: RequestOptions): PageRequest<Order> {
    return new PageRequest(
      (page: PageParams) =>
        this.call<Page<Order>>(
          {
            method: 'GET',
            path: path('orders'),
            query: {
              orgUserId: params.orgUserId,
              symbol: params.symbol,
              side: params.side,
              status: params.status,
              clientOrderId: params.clientOrderId,
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

class PositionsResource {
  constructor(private readonly call: Call) {}

  /** GET /api/v1/user/{orgUserId}/positions/: what the user holds. */
  get(orgUserId: string, options?: RequestOptions): Promise<Positions> {
    return this.call(
      { method: 'GET', path: path('user', requireId('orgUserId', orgUserId), 'positions'), idempotent: true },
      options,
    );
  }
}

class DeliveriesResource {
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

class WebhooksResource {
  readonly deliveries: DeliveriesResource;

  constructor(private readonly call: Call) {
    this.deliveries = new DeliveriesResource(call);
  }

  /**
   * Registers (or replaces) the organisation's endpoint. The api sends it the challenge before it answers;
   * `challengePassed` says whether your receiver answered it.
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
}

class OAuthResource {
  constructor(private readonly call: Call) {}

  /** POST /api/v1/oauth/test (spec 4.2): answers the object sent. Needs BASE_MODULE:WRITE with a token. */
  test<T extends JsonObject>(body: T, options?: RequestOptions): Promise<T> {
    return this.call(
      { method: 'POST', path: '/api/v1/oauth/test', body: { kind: 'json', value: body }, idempotent: false },
      options,
    );
  }
}

function pick(params: PageParams): PageParams {
  return {
    ...(params.limit === undefined ? {} : { limit: params.limit }),
    ...(params.cursor === undefined ? {} : { cursor: params.cursor }),
  };
}

function checkBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`baseUrl must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`baseUrl must have no query or fragment, got ${JSON.stringify(value)}`);
  }
  return url.toString().replace(/\/+$/, '');
}

function requireText(name: string, value: unknown): void {
  if (typeof value !== 'string' || value.trim() === '')
    throw new TypeError(`${name} must be a non-empty string`);
  if (value !== value.trim()) throw new TypeError(`${name} has leading or trailing whitespace`);
}

function checkNonNegative(name: string, value: number, integer: boolean): void {
  if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new TypeError(`${name} must be ${integer ? 'an integer' : 'a number'} >= 0, got ${String(value)}`);
  }
}
