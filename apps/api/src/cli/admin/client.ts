// The admin surface as the CLI sees it: each admin route once, with its method, its path template as
// /openapi.json spells it (test/admin-cli.e2e.spec.ts checks them against the served document), what it
// takes and what it answers; and one client that calls them through the envelope.
import { type Envelope, isEnvelope } from '@svc/protocol';

import { CommandError } from './errors.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The `{name}` parameters of a path template. */
export type PathParamName<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamName<Rest>
  : never;
export type PathParams<P extends string> = Readonly<Record<PathParamName<P>, string>>;

/** A route: for GET, `Req` is the query; for the other methods, the JSON body. */
export interface Route<P extends string, Req, Res> {
  readonly method: Method;
  readonly path: P;
  /** Types only: never set. */
  readonly types?: { readonly request: Req; readonly response: Res };
}

const route =
  <Req, Res>() =>
  <P extends string>(method: Method, path: P): Route<P, Req, Res> => ({ method, path });

// What the api answers (see its views); only what the CLI relies on is typed, the rest passes through.
export type Page<T> = { items: T[]; nextCursor?: string | null };
export type Policy = {
  enabledAssets: string[];
  quoteLimit: Record<string, number>;
  totalLimit: Record<string, number>;
  totalExposure: Record<string, number>;
  assetExposure: Record<string, number>;
  commissionRate: number;
  vatRate: number;
};
export type Org = {
  orgId: number;
  name: string;
  kycDomain: string;
  plan: string;
  environment: string;
  supportEmails: string[];
  policy: Policy;
  createdAt: string;
  updatedAt: string;
};
export type ApiKey = {
  id: string;
  orgId: number;
  apiKey: string;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
};
export type OAuthClient = {
  id: string;
  orgId: number;
  clientId: string;
  scopes: string[];
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
};
export type AuditEntry = {
  id: string;
  createdAt: string;
  actor: string;
  operatorId: string | null;
  action: string;
  orgId: number | null;
  details: unknown;
};
export type Price = { symbol: string; price: number; updatedAt: string };
export type Notice = {
  id: string;
  event: string;
  entity: string;
  message: string;
  startTime: string | null;
  endTime: string | null;
  createdAt: string;
};

// What the CLI sends. A query value left undefined is not sent.
export type OrgFields = {
  name?: string;
  kycDomain?: string;
  plan?: string;
  environment?: string;
  supportEmails?: string[];
};
export type PageQuery = { limit?: string | undefined; cursor?: string | undefined };
export type PolicyFields = Partial<Policy>;
export type NoticeFields = {
  event: string;
  entity: string;
  message: string;
  startTime?: string;
  endTime?: string;
};

export type Operator = {
  id: string;
  email: string;
  name: string;
  role: string;
  status: string;
  createdAt: string;
};
export type PersonalToken = {
  id: string;
  label: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};
export type OperatorFields = { email?: string; name?: string; role?: string };

export const ADMIN_ROUTES = {
  whoAmI: route<undefined, { operator: Operator; via: string; stepUpUntil: string | null }>()(
    'GET',
    '/api/v1/admin/session',
  ),
  stepUp: route<{ code: string }, { stepUpUntil: string }>()('POST', '/api/v1/admin/session/step-up'),
  createOperator: route<OperatorFields, Operator & { setupToken: string; setupExpiresAt: string }>()(
    'POST',
    '/api/v1/admin/operators',
  ),
  listOperators: route<undefined, { items: Operator[] }>()('GET', '/api/v1/admin/operators'),
  getOperator: route<undefined, Operator>()('GET', '/api/v1/admin/operators/{id}'),
  updateOperator: route<OperatorFields, Operator>()('PATCH', '/api/v1/admin/operators/{id}'),
  disableOperator: route<undefined, Operator>()('POST', '/api/v1/admin/operators/{id}/disable'),
  resetOperator: route<undefined, Operator & { setupToken: string; setupExpiresAt: string }>()(
    'POST',
    '/api/v1/admin/operators/{id}/reset',
  ),
  issuePersonalToken: route<{ label?: string; expiresInDays?: number }, PersonalToken & { token: string }>()(
    'POST',
    '/api/v1/admin/tokens',
  ),
  listPersonalTokens: route<undefined, { items: PersonalToken[] }>()('GET', '/api/v1/admin/tokens'),
  revokePersonalToken: route<undefined, PersonalToken>()('POST', '/api/v1/admin/tokens/{id}/revoke'),
  createOrg: route<OrgFields, Org>()('POST', '/api/v1/admin/orgs'),
  listOrgs: route<PageQuery, Page<Org>>()('GET', '/api/v1/admin/orgs'),
  getOrg: route<undefined, Org>()('GET', '/api/v1/admin/orgs/{orgId}'),
  updateOrg: route<OrgFields, Org>()('PATCH', '/api/v1/admin/orgs/{orgId}'),
  issueApiKey: route<{ label?: string }, ApiKey & { apiSecret: string }>()(
    'POST',
    '/api/v1/admin/orgs/{orgId}/api-keys',
  ),
  listApiKeys: route<undefined, Page<ApiKey>>()('GET', '/api/v1/admin/orgs/{orgId}/api-keys'),
  revokeApiKey: route<undefined, ApiKey>()('POST', '/api/v1/admin/orgs/{orgId}/api-keys/{id}/revoke'),
  issueOAuthClient: route<{ scopes: string; label?: string }, OAuthClient & { clientSecret: string }>()(
    'POST',
    '/api/v1/admin/orgs/{orgId}/oauth-clients',
  ),
  listOAuthClients: route<undefined, Page<OAuthClient>>()('GET', '/api/v1/admin/orgs/{orgId}/oauth-clients'),
  revokeOAuthClient: route<undefined, OAuthClient & { tokensRevoked: number }>()(
    'POST',
    '/api/v1/admin/orgs/{orgId}/oauth-clients/{id}/revoke',
  ),
  revokeTokens: route<undefined, { revoked: number }>()('POST', '/api/v1/admin/orgs/{orgId}/tokens/revoke'),
  listAudit: route<
    PageQuery & {
      orgId?: string | undefined;
      action?: string | undefined;
      operatorId?: string | undefined;
      operatorEmail?: string | undefined;
      from?: string | undefined;
      to?: string | undefined;
    },
    Page<AuditEntry>
  >()('GET', '/api/v1/admin/audit'),
  listPrices: route<PageQuery, Page<Price>>()('GET', '/api/v1/admin/prices'),
  getPrice: route<undefined, Price>()('GET', '/api/v1/admin/prices/{symbol}'),
  setPrice: route<{ price: number }, Price>()('PUT', '/api/v1/admin/prices/{symbol}'),
  deletePrice: route<undefined, Price>()('DELETE', '/api/v1/admin/prices/{symbol}'),
  setPolicy: route<PolicyFields, Org>()('PATCH', '/api/v1/admin/orgs/{orgId}/policy'),
  publishNotice: route<NoticeFields, Notice & { recipients: number }>()('POST', '/api/v1/admin/notices'),
  listNotices: route<PageQuery, Page<Notice>>()('GET', '/api/v1/admin/notices'),
  getNotice: route<undefined, Notice>()('GET', '/api/v1/admin/notices/{id}'),
} as const;

/** The path of `template` with its parameters filled in and encoded, and `query`'s defined values. */
export function routeUrl(
  template: string,
  params: Readonly<Record<string, string>>,
  query: Readonly<Record<string, string | undefined>> = {},
): string {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

export class AdminClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  /** Calls `route`; answers the envelope's data, or throws a CommandError with the api's error. */
  async call<P extends string, Req, Res>(
    route: Route<P, Req, Res>,
    params: PathParams<P>,
    ...request: Req extends undefined ? [] : [Req]
  ): Promise<Res> {
    const [input] = request as unknown as [object | undefined];
    const isQuery = route.method === 'GET';
    const path = routeUrl(route.path, params, isQuery ? (input as Record<string, string | undefined>) : {});
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    const body = !isQuery && input !== undefined ? JSON.stringify(input) : undefined;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetchFn(this.baseUrl + path, {
        method: route.method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CommandError(
        `cannot reach the api at ${this.baseUrl} (${cause?.code ?? cause?.message ?? String(error)}): ` +
          'is it running (npm start)? Pass --url or set SVC_URL.',
      );
    }
    const text = await response.text();
    let envelope: unknown;
    try {
      envelope = parseExact(text);
    } catch {
      envelope = undefined;
    }
    if (!isEnvelope(envelope)) {
      throw new CommandError(
        `${route.method} ${this.baseUrl}${path} answered HTTP ${response.status} without the envelope: ${text.slice(0, 200)}`,
        response.status,
      );
    }
    const { data, error } = envelope as Envelope<Res>;
    if (!response.ok || error || data === null)
      throw new CommandError(error ?? `HTTP ${response.status}`, response.status);
    return data;
  }
}

const { rawJSON } = JSON as unknown as { rawJSON: (text: string) => object };

/**
 * The answer with each number a double would round kept as its digits (`JSON.rawJSON`), so `--json` and the
 * text output print amounts exactly as the api wrote them.
 */
export function parseExact(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && context?.source !== undefined && context.source !== String(value)
      ? rawJSON(context.source)
      : value,
  );
}
