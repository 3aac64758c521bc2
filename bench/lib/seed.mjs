// What the api benchmark trades with, set up through the running api's public HTTP surface as an operator
// and a client would: the admin routes (organisation, API key, OAuth client, prices, policy), the token
// endpoint, and the users through the signed POST /api/v1/user/. Nothing here reaches into the api's code.
import { ALL_SCOPES, signRequest } from '@svc/protocol';

/** Operator prices of the two pairs the order scenario trades. */
export const PRICES = { BTC_EUR: 50000, ETH_EUR: 2500.5 };

/**
 * Every limit set, high enough that the benchmark's orders fill, so every check runs (the day's total
 * and the positions' valuation included); commission + VAT so the fees are computed.
 */
const POLICY = {
  enabledAssets: ['BTC', 'ETH'],
  quoteLimit: { EUR: 1000000 },
  totalLimit: { EUR: 1000000000 },
  totalExposure: { EUR: 1000000000 },
  assetExposure: { BTC: 1000000, ETH: 1000000 },
  commissionRate: 0.0015,
  vatRate: 0.21,
};

/** Answers `data` of a 200 envelope (parsed with `reviver`, if any), or throws with what came back. */
export async function call(baseUrl, method, path, { headers = {}, body, reviver } = {}) {
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text, reviver).data;
}

/** A JSON POST signed with an API key, as autocannon's requests are. */
export function signedHeaders(credentials, path, body) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    'content-type': 'application/json',
    'x-api-key': credentials.apiKey,
    'x-timestamp': timestamp,
    'x-signature': signRequest({ path, body, timestamp }, credentials.apiSecret),
  };
}

/**
 * POST `path` with the body `nextBody()` makes, signed afresh for every request in autocannon's
 * setupRequest (new timestamp and HMAC: replays are refused), the same cost for every candidate.
 */
export function signedPost({ port, credentials }, path, nextBody) {
  return {
    port,
    requests: [
      {
        method: 'POST',
        path,
        setupRequest(request) {
          const body = nextBody();
          request.body = body;
          request.headers = { ...request.headers, ...signedHeaders(credentials, path, body) };
          return request;
        },
      },
    ],
  };
}

/**
 * An organisation with an API key, an OAuth client and a bearer token (of `scope`, BASE_MODULE:READWRITE
 * unless told), the prices and policy above, and the users `userIds` (ACTIVE, kyc and tnc). Answers the
 * credentials.
 */
export async function seed(baseUrl, operatorToken, { name, userIds, scope = 'BASE_MODULE:READWRITE' }) {
  const admin = (method, path, body) =>
    call(baseUrl, method, path, {
      headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const org = await admin('POST', '/api/v1/admin/orgs/', {
    name,
    kycDomain: 'example.com',
    plan: 'ENTERPRISE',
    supportEmails: ['support@example.com'],
  });
  const orgPath = `/api/v1/admin/orgs/${org.orgId}`;
  const key = await admin('POST', `${orgPath}/api-keys/`, { label: 'bench' });
  const client = await admin('POST', `${orgPath}/oauth-clients/`, {
    scopes: ALL_SCOPES.join(' '),
    label: 'bench',
  });
  const token = await call(baseUrl, 'POST', '/api/v1/oauth/token', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope,
    }).toString(),
  });
  // A second token for the user writes (MANAGE_USERS), so that the first keeps the scope the reads use.
  const usersToken = await call(baseUrl, 'POST', '/api/v1/oauth/token', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'MANAGE_USERS:WRITE',
    }).toString(),
  });
  for (const [symbol, price] of Object.entries(PRICES)) {
    await admin('PUT', `/api/v1/admin/prices/${symbol}/`, { price });
  }
  await admin('PATCH', `${orgPath}/policy/`, POLICY);

  const credentials = {
    apiKey: key.apiKey,
    apiSecret: key.apiSecret,
    token: token.access_token,
    usersToken: usersToken.access_token,
  };
  const path = '/api/v1/user/';
  // Ten at a time: a few seconds for hundreds of users, without crowding the server.
  for (let start = 0; start < userIds.length; start += 10) {
    await Promise.all(
      userIds.slice(start, start + 10).map((orgUserId) => {
        const body = JSON.stringify({ orgUserId, kyc: true, tnc: true });
        return call(baseUrl, 'POST', path, { headers: signedHeaders(credentials, path, body), body });
      }),
    );
  }
  return credentials;
}
