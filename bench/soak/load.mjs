// The soak run's load: users taken through their life (created, terms accepted, KYC documents and form, an
// operator's decision, orders) by the organisation's signed SDK client, and an operator's changes through
// the admin API (policy, notices, prices, the webhook registered again). Every write goes through the
// ledger, which records how the api answered and which events the write must have produced.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import { SvcError } from '@svc/sdk';

/** A PNG's signature and first chunk name: what the api's type check reads (docs/api-guide.md, KYC). */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('IHDR'),
]);
const FORM = {
  firstName: 'Ann',
  lastName: 'Soak',
  dateOfBirth: '1990-02-03',
  nationality: 'GB',
  address: { line1: '1 High Street', city: 'London', postalCode: 'N1 1AA', country: 'GB' },
};
/** After a write that got no answer (a service or PostgreSQL down), before the loop's next write. */
const PAUSE_AFTER_FAILURE_MS = 250;
/** Between two operator changes. */
const ADMIN_INTERVAL_MS = 700;

/**
 * The key of the write an event belongs to, from the event as stored: each write of the run produces
 * events whose keys no other write produces (fresh user ids and clientOrderIds, a new limit value or notice
 * text each time), so an event is matched to its write without the api's answer.
 */
export function eventKey(entity, eventType, data) {
  switch (entity) {
    case 'Users':
      return eventType ? `${eventType} ${data.orgUserId}` : `user ${data.orgUserId} tnc=${data.tnc}`;
    case 'Orders':
      return `order ${data.clientOrderId}`;
    case 'Actions':
      return `action ${data.name} ${JSON.stringify(data.newValues)}`;
    case 'SystemInformation':
      return `notice ${data.message}`;
    default:
      return `unknown ${entity}`;
  }
}

/**
 * Every write attempted, with its outcome: `accepted` (2xx: its events must exist, once each), `refused`
 * (4xx: nothing may be written) or `unknown` (5xx, no answer, time-out: all of its events or none).
 */
export class Ledger {
  writes = [];

  /** Runs `send` as the write `route` expecting the events `keys`; answers its result, or undefined. */
  async write(route, keys, send, answeredId = () => undefined) {
    const write = { route, keys, outcome: 'unknown', reason: undefined, detail: undefined, id: undefined };
    this.writes.push(write);
    try {
      const result = await send();
      write.outcome = 'accepted';
      write.id = answeredId(result);
      return result;
    } catch (error) {
      if (!(error instanceof SvcError || error instanceof AdminError)) throw error;
      const { status } = error;
      if (status !== undefined && status >= 400 && status < 500) write.outcome = 'refused';
      // What the summary groups the failures by: the status, or the kind of failure when none came.
      write.reason =
        status !== undefined ? String(status) : error instanceof AdminError ? error.kind : error.name;
      write.detail = error.message;
      return undefined;
    }
  }
}

/** A failed admin call: `status` when the api answered, else `kind` says what happened (as SvcError's name). */
export class AdminError extends Error {
  constructor(message, status, kind) {
    super(message);
    this.status = status;
    this.kind = kind;
  }
}

/** A call of the admin API with the operator's personal token; throws AdminError unless 200. */
export function adminClient(baseUrl, token) {
  return async (method, path, body) => {
    let response;
    try {
      response = await fetch(baseUrl + path, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      const kind = error.name === 'TimeoutError' ? 'timeout' : (error.cause?.code ?? 'network error');
      throw new AdminError(`${method} ${path}: ${kind}`, undefined, kind);
    }
    const text = await response.text().catch(() => '');
    if (response.status !== 200) {
      throw new AdminError(`${method} ${path}: ${text.slice(0, 200)}`, response.status);
    }
    return JSON.parse(text).data;
  };
}

/**
 * One user after another until `signal` aborts: every third one created ACTIVE (KYC done by the
 * organisation) and trading at once; the others through KYC (every fifth of them rejected by the operator)
 * and then trading. A user whose write fails is left where it stands and the next one begins.
 */
export async function userLoop({ ledger, client, admin, orgId, loop, signal }) {
  for (let n = 0; !signal.aborted; n++) {
    const orgUserId = `soak-${loop}-${n}`;
    const ok = await userLife(ledger, client, admin, orgId, orgUserId, n);
    if (!ok) await sleep(PAUSE_AFTER_FAILURE_MS);
  }
}

async function userLife(ledger, client, admin, orgId, orgUserId, n) {
  const user = (route, keys, send, id) => ledger.write(route, keys, send, id ?? (() => orgUserId));
  if (n % 3 === 0) {
    const created = await user('POST /user (kyc)', [`user ${orgUserId} tnc=true`], () =>
      client.users.create({ orgUserId, kyc: true, tnc: true }),
    );
    return created !== undefined && (await trade(ledger, client, orgUserId, 3));
  }
  const steps = [
    [
      'POST /user',
      [`user ${orgUserId} tnc=false`],
      () => client.users.create({ orgUserId, kyc: false, tnc: false }),
    ],
    ['PATCH /user', [`user ${orgUserId} tnc=true`], () => client.users.update(orgUserId, { tnc: true })],
    [
      'POST /user/kyc/documents',
      [`KYC_PENDING ${orgUserId}`, `KYC_DOC_UPLOADED ${orgUserId}`],
      () =>
        client.kyc.uploadDocument(orgUserId, {
          file: PNG,
          fileName: 'passport.png',
          contentType: 'image/png',
          docCategory: 'IDENTITY',
          docSubCategory: 'PASSPORT',
        }),
    ],
    [
      'POST /user/kyc/form',
      [`KYC_FORM_SUBMITTED ${orgUserId}`],
      () => client.kyc.submitForm(orgUserId, FORM),
    ],
    n % 5 === 0
      ? [
          'POST /admin/.../kyc/reject',
          [`KYC_REJECTED ${orgUserId}`],
          () =>
            admin('POST', `/api/v1/admin/orgs/${orgId}/users/${orgUserId}/kyc/reject`, {
              reason: 'the document is unreadable',
            }),
        ]
      : [
          'POST /admin/.../kyc/approve',
          [`KYC_COMPLETED ${orgUserId}`],
          () => admin('POST', `/api/v1/admin/orgs/${orgId}/users/${orgUserId}/kyc/approve`, {}),
        ],
  ];
  for (const [route, keys, send] of steps) {
    if ((await user(route, keys, send)) === undefined) return false;
  }
  return trade(ledger, client, orgUserId, 2);
}

/** `count` market orders, buying then selling part of it; a rejected order is an answer like a fill. */
async function trade(ledger, client, orgUserId, count) {
  for (let i = 0; i < count; i++) {
    const clientOrderId = randomUUID();
    const sell = i % 2 === 1;
    const order = await ledger.write(
      'POST /orders',
      [`order ${clientOrderId}`],
      () =>
        client.orders.create({
          orgUserId,
          clientOrderId,
          symbol: 'BTC_EUR',
          type: 'MARKET',
          ...(sell ? { side: 'SELL', quantity: 0.0002 } : { side: 'BUY', quoteQuantity: 50 }),
        }),
      (answer) => answer.id,
    );
    if (order === undefined) return false;
  }
  return true;
}

/**
 * An operator's changes until `signal` aborts, in turn: the organisation's quote limit (a new value each
 * time: one Actions event), a maintenance notice (new text: one SystemInformation event), the BTC price (no
 * event), and the organisation's webhook registered again with the same url and secret (no event; the
 * receiver answers a new challenge).
 */
export async function operatorLoop({ ledger, client, admin, orgId, webhook, signal }) {
  for (let n = 0; !signal.aborted; n++) {
    const limit = 1_000_000 + n;
    const changes = [
      [
        'PATCH /admin/orgs/policy',
        [`action QUOTE_LIMIT ${JSON.stringify({ EUR: limit })}`],
        () => admin('PATCH', `/api/v1/admin/orgs/${orgId}/policy/`, { quoteLimit: { EUR: limit } }),
      ],
      [
        'POST /admin/notices',
        [`notice soak maintenance ${n}`],
        () =>
          admin('POST', '/api/v1/admin/notices/', {
            event: 'MAINTENANCE_ALERTS',
            entity: 'platform',
            message: `soak maintenance ${n}`,
          }),
      ],
      [
        'PUT /admin/prices',
        [],
        () => admin('PUT', '/api/v1/admin/prices/BTC_EUR/', { price: 50_000 + (n % 100) }),
      ],
      ['POST /webhooks', [], () => client.webhooks.register(webhook)],
    ];
    const [route, keys, send] = changes[n % changes.length];
    const done = await ledger.write(route, keys, send, (answer) => answer?.id ?? answer?.orgId);
    await sleep(done === undefined ? PAUSE_AFTER_FAILURE_MS : ADMIN_INTERVAL_MS);
  }
}
