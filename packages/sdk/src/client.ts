// The typed client of the organisation endpoints. Authenticates with the API key and secret (every request
// signed, docs/api-guide.md#api-key-signing) or with OAuth client credentials
// (docs/api-guide.md#oauth-client-credentials); see README.md.
import { TokenAuthenticator, type OAuthCredentials } from './oauth-token.js';
import { RequestSigner } from './request-signer.js';
import { DashboardResource } from './resources/dashboard.js';
import { EventsResource } from './resources/events.js';
import { KycResource } from './resources/kyc.js';
import { OAuthResource } from './resources/oauth.js';
import { OrdersResource } from './resources/orders.js';
import { OrgResource } from './resources/org.js';
import { PositionsResource } from './resources/positions.js';
import { SandboxResource } from './resources/sandbox.js';
import { UsersResource } from './resources/users.js';
import { WebhooksResource } from './resources/webhooks.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import {
  DEFAULT_TIMEOUT_MS,
  Transport,
  type ApiRequest,
  type FetchLike,
  type RequestOptions,
} from './transport.js';

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
  readonly events: EventsResource;
  readonly oauth: OAuthResource;
  readonly dashboard: DashboardResource;
  readonly sandbox: SandboxResource;
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
    this.events = new EventsResource(call, this.transport);
    this.oauth = new OAuthResource(call);
    this.dashboard = new DashboardResource(call);
    this.sandbox = new SandboxResource(call);
  }

  /**
   * A request to an endpoint this client has no method for yet, authenticated, retried and answered like
   * the others (`idempotent` says whether it may be repeated).
   */
  request<T>(request: ApiRequest, options?: RequestOptions): Promise<T> {
    return this.transport.request<T>(request, options);
  }
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
