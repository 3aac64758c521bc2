// The reference of the api benchmark: bare node:http + pg doing what the api does for the two measured
// routes, and nothing it could skip honestly.
//   POST /api/v1/user/  (API key signature): the protocol package reads the headers and verifies the
//     signature over the raw body; the key row is looked up and its secret decrypted (AES-256-GCM under
//     the master key) behind a 0.5 s cache; the signature is claimed in used_signatures (INSERT ... ON
//     CONFLICT DO NOTHING); the body is validated as CreateUserDto is; then in ONE transaction the user
//     row and the events row with its NOTIFY (the events table is the webhooks worker's queue, as the
//     api's OutboxRepository writes it); the same envelope back.
//   POST /api/v1/orders/ (API key signature): the same signature check and claim; the body validated as
//     CreateOrderDto is; then in ONE transaction the same statements and arithmetic as the api's, written
//     independently in lib/bare-orders.mjs: lock the user and read the policy, read the facts, check, fill
//     at the operator price, insert the order, move the position; the events row with its NOTIFY; the
//     record back.
//   POST /api/v1/oauth/test (bearer): SHA-256 of the token, the oauth_tokens row joined to its live
//     client behind the same 0.5 s cache, expiry, scope BASE_MODULE:WRITE; the body checked and echoed
//     compact in the envelope.
//   GET /api/v1/orders/{id}/ (bearer): the same token check (scope BASE_MODULE:READ), the order row of the
//     caller's organisation, the order record (exact digits) in the envelope.
// Errors answer the envelope with the api's statuses; the benchmark only drives the success paths.
import { createDecipheriv, hash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

import { EVENTS_CHANNEL } from '@svc/db';
import {
  ALL_SCOPES,
  CanonicalJsonError,
  canonicalizeJson,
  grantsScope,
  insufficientScopeBody,
  isScope,
  readRequestAuthHeaders,
  splitRequestTarget,
  verifyRequest,
} from '@svc/protocol';
import pg from 'pg';

import { isAmount, placeOrder as placeOrderIn, SYMBOL } from './bare-orders.mjs';

const CACHE_TTL_MS = 500;
export const ORG_USER_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
const USER_FIELDS = new Set(['orgUserId', 'kyc', 'tnc']);
const ORDER_FIELDS = new Set([
  'orgUserId',
  'clientOrderId',
  'symbol',
  'side',
  'type',
  'quantity',
  'quoteQuantity',
]);
const ORDER_READ = /^GET \/api\/v1\/orders\/([^/]+)$/;
// class-validator's isUUID('all').
const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/i;

export class HttpError extends Error {
  constructor(status, message, headers = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

/** The api's TtlCache: misses are cached too, the map is bounded, no load de-duplication. */
class TtlCache {
  entries = new Map();

  async get(key, load) {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    const value = await load();
    if (this.entries.size >= 10_000) this.entries.clear();
    this.entries.set(key, { value, until: now + CACHE_TTL_MS });
    return value;
  }
}

function decryptSecret(masterKey, sealed) {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined)
    throw new Error('unreadable sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', masterKey, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
}

/**
 * The bearer check of the reference (and of the layers of bench/layers.bench.mjs): SHA-256 of the
 * token, its oauth_tokens row joined to a live client behind the api's 0.5 s cache, expiry, the scope.
 * Answers `(authorization, required) => principal`, throwing an HttpError as the api would answer.
 */
export function bearerCheck(pool) {
  const tokens = new TtlCache();
  const findToken = async (token) => {
    const digest = hash('sha256', token, 'hex');
    const live = await tokens.get(digest, async () => {
      const { rows } = await pool.query(
        'SELECT t.id, t.org_id, t.scopes, t.expires_at FROM oauth_tokens t ' +
          'INNER JOIN oauth_clients c ON c.id = t.client_id AND c.revoked_at IS NULL ' +
          'WHERE t.token_hash = $1 AND t.revoked_at IS NULL LIMIT 1',
        [digest],
      );
      const row = rows[0];
      if (!row) return null;
      return {
        id: row.id,
        orgId: row.org_id,
        scopes: row.scopes.filter(isScope),
        expiresAt: row.expires_at.getTime(),
      };
    });
    return live && live.expiresAt > Date.now() ? live : null;
  };

  return async function bearerCaller(authorization, required) {
    const token = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : '';
    const live = token ? await findToken(token) : null;
    if (!live) {
      throw new HttpError(401, 'Unauthorized: the access token is invalid, expired or revoked', {
        'www-authenticate': 'Bearer error="invalid_token"',
      });
    }
    if (!grantsScope(live.scopes, required)) {
      const error = new HttpError(401, '', {
        'www-authenticate': `Bearer error="insufficient_scope", scope="${required}"`,
      });
      error.body = JSON.stringify(insufficientScopeBody(required));
      throw error;
    }
    return { orgId: live.orgId, method: 'bearer', scopes: live.scopes, credentialId: live.id };
  };
}

/**
 * The API key signature check of the reference (and of the signed layers of bench/layers.bench.mjs), as
 * HmacStrategy does it: the headers read, the key row and its decrypted secret behind the api's 0.5 s
 * cache, the signature verified over the raw body, then claimed in used_signatures. `config` is the api's
 * (masterKey, signatureWindow). Answers `(request, body) => principal`, throwing an HttpError as the api
 * would answer.
 */
export function signedCheck(pool, config) {
  const apiKeys = new TtlCache();

  const findApiKey = (key) =>
    apiKeys.get(key, async () => {
      const { rows } = await pool.query(
        'SELECT id, org_id, secret_ciphertext FROM api_keys WHERE key = $1 AND revoked_at IS NULL LIMIT 1',
        [key],
      );
      const row = rows[0];
      if (!row) return null;
      return {
        id: row.id,
        orgId: row.org_id,
        secret: decryptSecret(config.masterKey, row.secret_ciphertext),
      };
    });

  async function claimSignature(apiKeyId, signature, timestampSeconds) {
    const expiresAt = new Date((timestampSeconds + config.signatureWindow.maxAgeSeconds + 1) * 1000);
    const { rowCount } = await pool.query(
      'INSERT INTO used_signatures (api_key_id, signature, expires_at) VALUES ($1, $2, $3) ' +
        'ON CONFLICT DO NOTHING RETURNING signature',
      [apiKeyId, signature, expiresAt],
    );
    return rowCount === 1;
  }

  return async function signedCaller(request, body) {
    const headers = readRequestAuthHeaders(request.headers);
    if (!headers.ok) throw new HttpError(401, `Unauthorized: ${headers.message}`);
    const key = await findApiKey(headers.apiKey);
    if (!key) throw new HttpError(401, 'Unauthorized: unknown or revoked X-API-KEY');
    const { path, query } = splitRequestTarget(request.url);
    const result = verifyRequest(
      { path, query, body, timestamp: headers.timestamp, signature: headers.signature },
      key.secret,
      config.signatureWindow,
    );
    if (!result.ok) {
      if (result.reason === 'invalid_body') throw new HttpError(400, `Bad Request: body: ${result.message}`);
      throw new HttpError(401, `Unauthorized: ${result.message}`);
    }
    if (!(await claimSignature(key.id, headers.signature, result.timestamp))) {
      throw new HttpError(401, 'Unauthorized: this signature was already used: sign each request afresh');
    }
    return { orgId: key.orgId, method: 'hmac', scopes: ALL_SCOPES, credentialId: key.id };
  };
}

/** An event row and its NOTIFY (the worker and the event streams), in one statement as the api sends it. */
export const EVENT_INSERT = `WITH inserted AS (
    INSERT INTO events (id, org_id, entity, event_type, data) VALUES ($1, $2, $3, $4, $5) RETURNING org_id)
  SELECT pg_notify($6, org_id::text) FROM inserted`;

/** `work(client)` in one transaction on a client of `pool`: committed when it resolves, rolled back when it throws. */
export async function inTransaction(pool, work) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** `run(sql, values) => rows` on a pg client or pool. */
export const rowsOf = (client) => async (sql, values) => (await client.query(sql, values)).rows;

/** CreateUserDto with the api's whitelist + forbidNonWhitelisted validation. */
export function userInput(body) {
  const { input, problems } = parseFields(body, USER_FIELDS);
  if (typeof input.orgUserId !== 'string' || !ORG_USER_ID.test(input.orgUserId)) {
    problems.push('orgUserId must be 1 to 128 characters among letters, digits and . _ : @ -');
  }
  if (typeof input.kyc !== 'boolean') problems.push('kyc must be a boolean value');
  if (typeof input.tnc !== 'boolean') problems.push('tnc must be a boolean value');
  if (problems.length > 0) throw new HttpError(400, `Bad Request: ${problems.join('; ')}`);
  return input;
}

/**
 * The user row and its event with its NOTIFY, as UsersService writes them, through `run(sql, values) =>
 * rows` inside the caller's transaction; answers the user's record.
 */
export async function insertUser(run, orgId, input) {
  const userStatus = input.kyc ? 'ACTIVE' : 'PENDING';
  const kycState = input.kyc ? 'KYC_COMPLETED' : 'NONE';
  const [stored] = await run(
    'INSERT INTO users (org_id, org_user_id, kyc, tnc, user_status, user_type, kyc_state) ' +
      'VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING created_at, updated_at',
    [orgId, input.orgUserId, input.kyc, input.tnc, userStatus, 'CONSUMER', kycState],
  );
  const record = {
    orgUserId: input.orgUserId,
    orgId,
    kyc: input.kyc,
    tnc: input.tnc,
    userStatus,
    userType: 'CONSUMER',
  };
  await run(EVENT_INSERT, [randomUUID(), orgId, 'Users', null, record, EVENTS_CHANNEL]);
  return {
    ...record,
    kycState,
    createdAt: stored.created_at.toISOString(),
    updatedAt: stored.updated_at.toISOString(),
  };
}

/** A second user with the same orgUserId as the api answers it; any other error as it is. */
export function userConflict(error, input) {
  if (error?.code !== '23505') return error;
  return new HttpError(
    409,
    `Conflict: a user with orgUserId ${JSON.stringify(input.orgUserId)} already exists`,
  );
}

/** CreateOrderDto with the api's whitelist + forbidNonWhitelisted validation, then the request. */
export function orderInput(body) {
  const { input, problems } = parseFields(body, ORDER_FIELDS);
  if (typeof input.orgUserId !== 'string' || !ORG_USER_ID.test(input.orgUserId)) {
    problems.push('orgUserId must be 1 to 128 characters among letters, digits and . _ : @ -');
  }
  if (typeof input.clientOrderId !== 'string' || !UUID.test(input.clientOrderId)) {
    problems.push('clientOrderId must be a UUID');
  }
  if (typeof input.symbol !== 'string' || !SYMBOL.test(input.symbol))
    problems.push('symbol must be BASE_QUOTE');
  if (input.side !== 'BUY' && input.side !== 'SELL') problems.push('side must be BUY or SELL');
  if (input.type !== 'MARKET') problems.push('type must be MARKET');
  for (const field of ['quantity', 'quoteQuantity']) {
    if (input[field] != null && !isAmount(input[field])) problems.push(`${field} must be an amount`);
  }
  if (problems.length > 0) throw new HttpError(400, `Bad Request: ${problems.join('; ')}`);
  return orderRequest(input);
}

/** A valid CreateOrderDto as the venue's request, after the service's check that one amount is sent. */
export function orderRequest(input) {
  if ((input.quantity == null) === (input.quoteQuantity == null)) {
    throw new HttpError(400, 'Bad Request: send exactly one of quantity and quoteQuantity');
  }
  const [, base, quote] = SYMBOL.exec(input.symbol);
  return {
    orgUserId: input.orgUserId,
    clientOrderId: input.clientOrderId.toLowerCase(),
    symbol: input.symbol,
    base,
    quote,
    side: input.side,
    amountField: input.quantity == null ? 'quoteQuantity' : 'quantity',
    amount: String(input.quantity ?? input.quoteQuantity),
  };
}

/**
 * One market order, filled at the operator price or rejected, and its event with its NOTIFY, on `client`
 * (a pg client, or anything with its `query`) inside the caller's transaction; answers the order record.
 */
export async function insertOrder(client, orgId, request) {
  const { record, missing } = await placeOrderIn(client, orgId, request);
  if (missing === 'user')
    throw new HttpError(404, `Not Found: no user with orgUserId ${JSON.stringify(request.orgUserId)}`);
  // Retries of a clientOrderId are not driven by the benchmark.
  if (missing) throw new HttpError(409, 'Conflict: clientOrderId already used');
  await client.query(EVENT_INSERT, [
    randomUUID(),
    orgId,
    'Orders',
    null,
    JSON.stringify(record),
    EVENTS_CHANNEL,
  ]);
  return record;
}

/**
 * Starts the reference on `url` (migrated by the caller) and resolves to the listening server.
 * `config`: { masterKey: Buffer, bodyLimitBytes, signatureWindow: { maxAgeSeconds, maxAheadSeconds } }.
 */
export async function startBareApi({ url, config, port = 0, poolSize = 10 }) {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, application_name: 'bench-bare' });
  const signedCaller = signedCheck(pool, config);

  /** A bearer token, as BearerStrategy and the guard's scope check do. */
  const bearerCaller = bearerCheck(pool);

  /** The body is checked once: by verifyRequest for a signed caller, else here unless `checked`. */
  async function caller(request, body, required, checked = false) {
    const authorization = request.headers.authorization;
    if (authorization?.startsWith('Bearer ')) {
      if (!checked) checkJsonBody(body);
      return bearerCaller(authorization, required);
    }
    return signedCaller(request, body);
  }

  async function createUser(orgId, input) {
    try {
      return await inTransaction(pool, (client) => insertUser(rowsOf(client), orgId, input));
    } catch (error) {
      throw userConflict(error, input);
    }
  }

  /** The order `id` of the organisation as its record, or null. */
  async function findOrder(orgId, id) {
    const { rows } = await pool.query('SELECT * FROM orders WHERE org_id = $1 AND id = $2', [orgId, id]);
    return rows[0] ? orderRecord(rows[0]) : null;
  }

  /** One market order, filled at the operator price or rejected, with its event. */
  function placeOrder(orgId, request) {
    return inTransaction(pool, (client) => insertOrder(client, orgId, request));
  }

  async function handle(request, body) {
    const route = `${request.method} ${splitRequestTarget(request.url).path.replace(/\/$/, '')}`;
    if (route === 'POST /api/v1/user') {
      checkJsonType(request, body);
      const who = await caller(request, body, 'MANAGE_USERS:WRITE');
      const user = await createUser(who.orgId, userInput(body));
      return JSON.stringify({ code: 200, data: user, error: null });
    }
    if (route === 'POST /api/v1/orders') {
      checkJsonType(request, body);
      const who = await caller(request, body, 'BASE_MODULE:WRITE');
      const order = await placeOrder(who.orgId, orderInput(body));
      return JSON.stringify({ code: 200, data: order, error: null });
    }
    if (route === 'POST /api/v1/oauth/test') {
      checkJsonType(request, body);
      const data = checkJsonBody(body);
      await caller(request, body, 'BASE_MODULE:WRITE', true);
      return `{"code":200,"data":${data},"error":null}`;
    }
    const read = ORDER_READ.exec(route);
    if (read) {
      const who = await caller(request, body, 'BASE_MODULE:READ', true);
      const order = /^[0-9]{1,15}$/.test(read[1]) ? await findOrder(who.orgId, read[1]) : null;
      if (!order) throw new HttpError(404, `Not Found: no order ${JSON.stringify(read[1])}`);
      return JSON.stringify({ code: 200, data: order, error: null });
    }
    throw new HttpError(404, `Not Found: no route ${route}`);
  }

  const server = createServer((request, response) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size <= config.bodyLimitBytes) chunks.push(chunk);
    });
    request.on('end', () => {
      const answer = (status, text, headers = {}) => {
        response.writeHead(status, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(text),
          ...headers,
        });
        response.end(text);
      };
      if (size > config.bodyLimitBytes) {
        answer(413, JSON.stringify({ code: 413, data: null, error: 'Payload Too Large' }));
        return;
      }
      handle(request, Buffer.concat(chunks).toString('utf8')).then(
        (text) => answer(200, text),
        (error) => {
          if (error instanceof HttpError) {
            answer(
              error.status,
              error.body ?? JSON.stringify({ code: error.status, data: null, error: error.message }),
              error.headers,
            );
          } else {
            answer(500, JSON.stringify({ code: 500, data: null, error: 'Internal Server Error' }));
          }
        },
      );
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    server,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    },
  };
}

/**
 * The body parsed as a DTO's input, and the problems of the api's whitelist + forbidNonWhitelisted
 * validation so far (a field not in `fields`); a non-object body validates as `{}`.
 */
function parseFields(body, fields) {
  let input;
  try {
    input = JSON.parse(body);
  } catch {
    throw new HttpError(400, 'Bad Request: body: invalid JSON');
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) input = {};
  const problems = Object.keys(input)
    .filter((field) => !fields.has(field))
    .map((field) => `property ${field} should not exist`);
  return { input, problems };
}

/** A stored amount as a JSON number with exactly its digits (trailing zeros dropped). */
function exact(stored) {
  const trimmed = stored.replace(/\.?0+$/, '');
  return JSON.rawJSON(trimmed === '-0' ? '0' : trimmed);
}

/** An orders row as the order record (docs/api-guide.md#orders-events), in its field order. */
function orderRecord(row) {
  return {
    id: Number(row.id),
    orgId: row.org_id,
    clientOrderId: row.client_order_id,
    orgUserId: row.org_user_id,
    symbol: row.symbol,
    side: row.side,
    type: row.type,
    quantity: exact(row.quantity),
    quoteQuantity: exact(row.quote_quantity),
    filled: exact(row.filled),
    status: row.status,
    price: exact(row.price),
    averagePrice: exact(row.average_price),
    estimatedPrice: exact(row.estimated_price),
    baseAveragePrice: exact(row.base_average_price),
    commissionRate: exact(row.commission_rate),
    vatRate: exact(row.vat_rate),
    commissionAmount: exact(row.commission_amount),
    vatAmount: exact(row.vat_amount),
    netExecutedAmount: exact(row.net_executed_amount),
    totalExecutedAmount: exact(row.total_executed_amount),
    commissionAsset: row.commission_asset,
    rejectionReason: row.rejection_reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The api's JSON body parser takes application/json only. */
function checkJsonType(request, body) {
  const type = request.headers['content-type'] ?? '';
  if (body.length > 0 && !type.startsWith('application/json')) {
    throw new HttpError(415, 'Unsupported Media Type');
  }
}

/** ...and answers 400 to invalid JSON or duplicate keys; returns the compact (canonical) text. */
export function checkJsonBody(body) {
  try {
    return canonicalizeJson(body);
  } catch (error) {
    if (error instanceof CanonicalJsonError) throw new HttpError(400, `Bad Request: body: ${error.message}`);
    throw error;
  }
}
