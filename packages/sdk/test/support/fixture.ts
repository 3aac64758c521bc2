// What the test files share: the running services' address and credentials (from the globalSetup),
// clients built on them, the admin surface, and a few small helpers.
import { randomUUID } from 'node:crypto';

import { SvcClient, type CommonOptions, type FetchLike } from '../../src/index.js';

export interface Services {
  readonly baseUrl: string;
  readonly orgId: number;
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly adminToken: string;
}

export function services(): Services {
  const text = process.env.SDK_TEST_SERVICES;
  if (!text) throw new Error('SDK_TEST_SERVICES is not set: run the tests through jest (its globalSetup)');
  return JSON.parse(text) as Services;
}

export function signedClient(options: Partial<CommonOptions> = {}): SvcClient {
  const { baseUrl, apiKey, apiSecret } = services();
  return new SvcClient({ baseUrl, apiKey, apiSecret, ...options });
}

export function oauthClient(
  scopes = 'BASE_MODULE:READWRITE MANAGE_USERS:READWRITE',
  options: Partial<CommonOptions> = {},
) {
  const { baseUrl, clientId, clientSecret } = services();
  return new SvcClient({ baseUrl, clientId, clientSecret, scopes, ...options });
}

/** A call of the admin surface (operators' side, for setting up what the organisation cannot do itself). */
export async function admin<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const { baseUrl, adminToken } = services();
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as { data: T; error: string | null };
  if (response.status !== 200)
    throw new Error(`admin ${method} ${path}: ${response.status} ${envelope.error}`);
  return envelope.data;
}

/** A fresh orgUserId, so test files never collide on the shared organisation. */
export function newUserId(prefix = 'u'): string {
  return `${prefix}-${randomUUID()}`;
}

export interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly status: number;
}

/** The global fetch, recording every request and its status. */
export function recordingFetch(): { fetch: FetchLike; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const recording: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    exchanges.push({
      method: init.method ?? 'GET',
      url,
      headers: { ...(init.headers as Record<string, string>) },
      status: response.status,
    });
    return response;
  };
  return { fetch: recording, exchanges };
}

export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The smallest PNG signature the api accepts as a PNG (it judges by the first bytes). */
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

export interface OrgCredentials {
  readonly orgId: number;
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/**
 * An ENTERPRISE organisation of its own (kycDomain localhost), for a test file that registers a webhook:
 * an organisation has one endpoint, and test files run in parallel. LIVE unless `environment` says SANDBOX.
 */
export async function createOrg(
  scopes = 'BASE_MODULE:READWRITE MANAGE_USERS:READWRITE',
  environment: 'LIVE' | 'SANDBOX' = 'LIVE',
): Promise<OrgCredentials> {
  const org = await admin<{ orgId: number }>('POST', '/api/v1/admin/orgs/', {
    name: `SDK test ${randomUUID().slice(0, 8)}`,
    kycDomain: 'localhost',
    plan: 'ENTERPRISE',
    environment,
  });
  const key = await admin<{ apiKey: string; apiSecret: string }>(
    'POST',
    `/api/v1/admin/orgs/${org.orgId}/api-keys/`,
    {},
  );
  const client = await admin<{ clientId: string; clientSecret: string }>(
    'POST',
    `/api/v1/admin/orgs/${org.orgId}/oauth-clients/`,
    { scopes },
  );
  return { orgId: org.orgId, ...key, ...client };
}

export function clientsOf(org: OrgCredentials, options: Partial<CommonOptions> = {}) {
  const { baseUrl } = services();
  return {
    signed: new SvcClient({ baseUrl, apiKey: org.apiKey, apiSecret: org.apiSecret, ...options }),
    oauth: new SvcClient({
      baseUrl,
      clientId: org.clientId,
      clientSecret: org.clientSecret,
      scopes: 'BASE_MODULE:READWRITE MANAGE_USERS:READWRITE',
      ...options,
    }),
  };
}
