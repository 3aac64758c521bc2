// A signature covers what the api acts on: a body is signed with its numbers written as
// String(Number(literal)), so a number that form would round (9007199254740993, signed as
// 9007199254740992) is refused on signed requests with a 400 naming it, before anything is written
// (docs/api-guide.md#api-key-signing). Bearer callers' digits are read as sent and stay accepted.
import { createHmac, randomUUID } from 'node:crypto';

import { type Order, signedRequestHeaders } from '@svc/protocol';

import { ApiFixture, type OrgSession } from '../support/app-fixture.js';

describe('numbers a signature does not cover', () => {
  let api: ApiFixture;
  let org: OrgSession;
  let orgUserId: string;

  beforeAll(async () => {
    api = await ApiFixture.start();
    org = await api.createOrg();
    // A price small enough for a 20-digit amount to fill, so that only the signature stops the order.
    await api.rows(
      `INSERT INTO prices (symbol, price) VALUES ('ETH_GBP', '0.00000001')
         ON CONFLICT (symbol) DO UPDATE SET price = EXCLUDED.price`,
    );
    await api.rows(
      `UPDATE organisations SET policy = policy || '{"enabledAssets":["BTC","ETH"]}' WHERE id = $1`,
      [org.orgId],
    );
    orgUserId = `u-${randomUUID()}`;
    const user = await org.signed('POST', '/api/v1/user/', { body: { orgUserId, kyc: true, tnc: true } });
    expect(user.status).toBe(200);
  });

  afterAll(async () => {
    await api.close();
  });

  const orderText = (amount: string) =>
    `{"orgUserId":"${orgUserId}","clientOrderId":"${randomUUID()}","symbol":"ETH_GBP","side":"BUY",` +
    `"type":"MARKET",${amount}}`;

  /** Sends `sent`, signed as `signedAs` (the text a client that rounds numbers signs). */
  function sendSignedAs(sent: string, signedAs: string) {
    const headers = signedRequestHeaders(
      { path: '/api/v1/orders/', body: signedAs },
      { apiKey: org.apiKey, apiSecret: org.apiSecret },
    );
    return api.request<Order>('POST', '/api/v1/orders/', { rawBody: sent, headers });
  }

  async function stored(): Promise<{ orders: number; events: number; positions: number }> {
    const [row] = await api.rows<{ orders: number; events: number; positions: number }>(
      `SELECT (SELECT count(*)::int FROM orders WHERE org_id = $1) AS orders,
              (SELECT count(*)::int FROM events WHERE org_id = $1) AS events,
              (SELECT count(*)::int FROM positions) AS positions`,
      [org.orgId],
    );
    return row!;
  }

  it.each([
    ['quantity', '9007199254740993', '9007199254740992'],
    ['quoteQuantity', '12345678901234567891', '12345678901234567000'],
    ['quantity', '0.1000000000000000055511151231257827', '0.1'],
    ['quantity', '1.0000000000000001', '1'],
  ])(
    'refuses %s %s, signed as %s, with a 400 naming the field, and writes nothing',
    async (field, sent, signedAs) => {
      const before = await stored();
      const text = orderText(`"${field}":${sent}`);
      const response = await sendSignedAs(text, text.replace(sent, signedAs));
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 400, data: null });
      expect(response.body.error).toContain(`$.${field}: the number ${sent} would be signed as ${signedAs}`);
      expect(response.body.error).toContain('every number must keep its exact value');
      expect(await stored()).toEqual(before);
    },
  );

  it('refuses the number whatever the client signed: its digits signed as sent, by hand', async () => {
    const before = await stored();
    const text = orderText('"quantity":9007199254740993');
    // The protocol package refuses to sign this body, so the HMAC is computed here over the digits as sent.
    const timestamp = String(Math.floor(Date.now() / 1000));
    const message = `{"body":${text},"query":{},"url":"/api/v1/orders/","ts":"${timestamp}"}`;
    const response = await api.request('POST', '/api/v1/orders/', {
      rawBody: text,
      headers: {
        'x-api-key': org.apiKey,
        'x-timestamp': timestamp,
        'x-signature': createHmac('sha256', org.apiSecret).update(message).digest('hex'),
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('$.quantity: the number 9007199254740993');
    expect(await stored()).toEqual(before);
  });

  it('accepts other spellings of the value signed (55.50 as 55.5, 1E-2 as 0.01) and acts on that value', async () => {
    const text = orderText('"quantity":9007199254740994.000');
    const response = await sendSignedAs(text, text.replace('9007199254740994.000', '9007199254740994'));
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ quantity: 9007199254740994 });
    const [row] = await api.rows<{ quantity: string }>('SELECT quantity FROM orders WHERE id = $1', [
      response.body.data!.id,
    ]);
    expect(row!.quantity).toBe('9007199254740994.00000000');

    const small = orderText('"quantity":1E-2');
    const placed = await sendSignedAs(small, small.replace('1E-2', '0.01'));
    expect(placed.status).toBe(200);
    expect(placed.body.data).toMatchObject({ quantity: 0.01 });
  });

  it('leaves bearer callers the digits they send: no signature is there to disagree', async () => {
    const response = await org.bearer<Order>('POST', '/api/v1/orders/', {
      rawBody: orderText('"quantity":9007199254740993'),
    });
    expect(response.status).toBe(200);
    const [row] = await api.rows<{ quantity: string }>('SELECT quantity FROM orders WHERE id = $1', [
      response.body.data!.id,
    ]);
    expect(row!.quantity).toBe('9007199254740993.00000000');
  });
});
