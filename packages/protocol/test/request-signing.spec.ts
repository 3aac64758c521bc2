import { createHmac } from 'node:crypto';

import {
  CanonicalJsonError,
  canonicalizeJson,
  canonicalizeQuery,
  readRequestAuthHeaders,
  requestSigningMessage,
  signRequest,
  signedRequestHeaders,
  splitRequestTarget,
  verifyCanonicalRequest,
  verifyRequest,
} from '../src/index.js';

const secret = 'test-secret';
const now = Date.UTC(2026, 10, 21, 12, 0, 0);
const nowSeconds = now / 1000;

/** The expected signature computed without the library: HMAC-SHA256 hex of the message text. */
function hmac(message: string): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}

describe('canonicalizeQuery', () => {
  it.each([
    [undefined, '{}'],
    ['', '{}'],
    ['?', '{}'],
    ['a=1&b=2', '{"a":"1","b":"2"}'],
    ['?a=1', '{"a":"1"}'],
    ['10=x&2=y', '{"10":"x","2":"y"}'],
    ['a=1&b=2&a=3', '{"a":["1","3"],"b":"2"}'],
    ['a=1&a=2&a=3', '{"a":["1","2","3"]}'],
    ['flag', '{"flag":""}'],
    ['a=', '{"a":""}'],
    ['na%20me=J%C3%BCrgen+M', '{"na me":"Jürgen M"}'],
    ['path=%2Fx%2Fy', '{"path":"/x/y"}'],
    ['q=%22quoted%22%5C', '{"q":"\\"quoted\\"\\\\"}'],
    ['a=1&&b=2', '{"a":"1","b":"2"}'],
    ['a=%zz', '{"a":"%zz"}'],
    ['a=x=y', '{"a":"x=y"}'],
  ])('writes %j as %s', (query, expected) => {
    expect(canonicalizeQuery(query)).toBe(expected);
  });
});

describe('splitRequestTarget', () => {
  it('splits at the first ? and keeps the trailing slash', () => {
    expect(splitRequestTarget('/api/v1/org/?a=1&b=?')).toEqual({ path: '/api/v1/org/', query: 'a=1&b=?' });
    expect(splitRequestTarget('/api/v1/user/')).toEqual({ path: '/api/v1/user/', query: '' });
  });
});

describe('request signing (docs/api-guide.md#api-key-signing)', () => {
  const createUser = {
    path: '/api/v1/user/',
    body: '{"orgUserId":"user-1","kyc":true,"tnc":true}',
    timestamp: String(nowSeconds),
  };

  it('signs {"body":B,"query":Q,"url":U,"ts":T} compact, in that order', () => {
    const message = `{"body":{"orgUserId":"user-1","kyc":true,"tnc":true},"query":{},"url":"/api/v1/user/","ts":"${nowSeconds}"}`;
    expect(requestSigningMessage(createUser)).toBe(message);
    expect(signRequest(createUser, secret)).toBe(hmac(message));
    expect(signRequest(createUser, secret)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs the API guide example numbers in canonical form: 55000.00 as 55000, 55.50 as 55.5', () => {
    const request = {
      path: '/api/v1/orders/',
      body: '{"quoteQuantity": 55000.00, "price": 55.50}',
      timestamp: '1',
    };
    expect(requestSigningMessage(request)).toBe(
      '{"body":{"quoteQuantity":55000,"price":55.5},"query":{},"url":"/api/v1/orders/","ts":"1"}',
    );
  });

  it('signs a GET without body or query as {} and {}', () => {
    const request = { path: '/api/v1/org/', timestamp: '1700000000' };
    expect(requestSigningMessage(request)).toBe(
      '{"body":{},"query":{},"url":"/api/v1/org/","ts":"1700000000"}',
    );
  });

  it('signs the query parameters and the path exactly as sent, slashes unescaped', () => {
    const request = { path: '/api/v1/org/', query: 'b=2&a=1', timestamp: '5' };
    expect(requestSigningMessage(request)).toBe(
      '{"body":{},"query":{"b":"2","a":"1"},"url":"/api/v1/org/","ts":"5"}',
    );
  });

  it('builds the three headers, the timestamp defaulting to now in whole seconds', () => {
    const before = Math.floor(Date.now() / 1000);
    const headers = signedRequestHeaders(
      { path: createUser.path, body: createUser.body },
      { apiKey: 'key-1', apiSecret: secret },
    );
    const after = Math.floor(Date.now() / 1000);
    expect(headers['x-api-key']).toBe('key-1');
    expect(Number(headers['x-timestamp'])).toBeGreaterThanOrEqual(before);
    expect(Number(headers['x-timestamp'])).toBeLessThanOrEqual(after);
    expect(headers['x-signature']).toBe(
      signRequest({ ...createUser, timestamp: headers['x-timestamp'] }, secret),
    );
  });

  it.each([
    ['{"quantity":9007199254740993}', ['quantity'], '9007199254740992'],
    ['{"quoteQuantity":12345678901234567891}', ['quoteQuantity'], '12345678901234567000'],
    ['{"legs":[{"price":0.1000000000000000055511151231257827}]}', ['legs', 0, 'price'], '0.1'],
  ])('refuses to sign %s: the signed number would be another one', (body, path, signedAs) => {
    const request = { path: '/api/v1/orders/', body, timestamp: '1' };
    for (const sign of [
      () => requestSigningMessage(request),
      () => signRequest(request, secret),
      () => signedRequestHeaders(request, { apiKey: 'key-1', apiSecret: secret }),
    ]) {
      let thrown: unknown;
      try {
        sign();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(CanonicalJsonError);
      expect(thrown).toMatchObject({ reason: 'ambiguous_number', path });
      expect((thrown as Error).message).toContain(`would be signed as ${signedAs}, another number`);
    }
  });

  it('signs numbers that only differ in spelling from their canonical form', () => {
    const request = {
      path: '/api/v1/orders/',
      body: '{"a":55.50,"b":1E2,"c":-0,"d":9007199254740992.0}',
      timestamp: '1',
    };
    expect(requestSigningMessage(request)).toBe(
      '{"body":{"a":55.5,"b":100,"c":0,"d":9007199254740992},"query":{},"url":"/api/v1/orders/","ts":"1"}',
    );
  });

  describe('verifyRequest', () => {
    const signed = { ...createUser, signature: signRequest(createUser, secret) };

    it('refuses a body with a number its signature does not cover as invalid_body, naming its path', () => {
      // Signed as the rounded number a client library would have written, sent with the digits acted on.
      const order = { path: '/api/v1/orders/', timestamp: String(nowSeconds) };
      const signature = signRequest({ ...order, body: '{"quantity":9007199254740992}' }, secret);
      const result = verifyRequest({ ...order, body: '{"quantity":9007199254740993}', signature }, secret, {
        now,
      });
      expect(result).toMatchObject({ ok: false, reason: 'invalid_body' });
      expect(!result.ok && result.message).toContain(
        '$.quantity: the number 9007199254740993 would be signed as',
      );
    });

    it('accepts a good signature and returns the timestamp', () => {
      expect(verifyRequest(signed, secret, { now })).toEqual({ ok: true, timestamp: nowSeconds });
    });

    it('accepts the same body sent with other whitespace and number spelling', () => {
      const respelled = { ...signed, body: '{ "orgUserId" : "user-1",\n "kyc": true, "tnc": true }' };
      expect(verifyRequest(respelled, secret, { now }).ok).toBe(true);
    });

    it.each([
      ['the timestamp header', { timestamp: undefined }, 'The X-TIMESTAMP header is missing'],
      ['an empty timestamp', { timestamp: '' }, 'The X-TIMESTAMP header is missing'],
      ['the signature header', { signature: undefined }, 'The X-SIGNATURE header is missing'],
    ])('reports a missing header: %s', (_name, change, message) => {
      expect(verifyRequest({ ...signed, ...change }, secret, { now })).toEqual({
        ok: false,
        reason: 'missing_header',
        message,
      });
    });

    it.each(['12.5', '-5', '+5', '1e9', ' 5', 'abc', '1234567890123', '0x10'])(
      'reports the malformed timestamp %j',
      (timestamp) => {
        const result = verifyRequest({ ...signed, timestamp }, secret, { now });
        expect(result).toMatchObject({ ok: false, reason: 'malformed_timestamp' });
      },
    );

    it('accepts the window bounds exactly: 300 s old and 3900 s ahead (clients may sign an hour ahead)', () => {
      for (const seconds of [nowSeconds - 300, nowSeconds + 3600, nowSeconds + 3900]) {
        const request = { ...createUser, timestamp: String(seconds) };
        expect(
          verifyRequest({ ...request, signature: signRequest(request, secret) }, secret, { now }).ok,
        ).toBe(true);
      }
    });

    it('refuses 301 s old as too old and 3901 s ahead as too far ahead', () => {
      const old = { ...createUser, timestamp: String(nowSeconds - 301) };
      const ahead = { ...createUser, timestamp: String(nowSeconds + 3901) };
      expect(verifyRequest({ ...old, signature: signRequest(old, secret) }, secret, { now })).toEqual({
        ok: false,
        reason: 'timestamp_too_old',
        message: 'X-TIMESTAMP is more than 300 s in the past',
      });
      expect(verifyRequest({ ...ahead, signature: signRequest(ahead, secret) }, secret, { now })).toEqual({
        ok: false,
        reason: 'timestamp_too_far_ahead',
        message: 'X-TIMESTAMP is more than 3900 s in the future',
      });
    });

    it('takes configured bounds, and 0 means exactly this second, not unchecked', () => {
      const request = { ...createUser, timestamp: String(nowSeconds - 1) };
      const signature = signRequest(request, secret);
      expect(verifyRequest({ ...request, signature }, secret, { now, maxAgeSeconds: 0 }).ok).toBe(false);
      expect(verifyRequest({ ...request, signature }, secret, { now, maxAgeSeconds: 1 }).ok).toBe(true);
      expect(() => verifyRequest(signed, secret, { now, maxAgeSeconds: -1 })).toThrow(RangeError);
      expect(() => verifyRequest(signed, secret, { now, maxAheadSeconds: Number.NaN })).toThrow(RangeError);
    });

    it.each([
      ['another secret', { secret: 'other-secret' }],
      ['another path', { path: '/api/v1/user' }],
      ['another body', { body: '{"orgUserId":"user-2","kyc":true,"tnc":true}' }],
      ['reordered keys', { body: '{"kyc":true,"orgUserId":"user-1","tnc":true}' }],
      ['a query added', { query: 'a=1' }],
      ['another timestamp', { timestamp: String(nowSeconds + 1) }],
      ['an uppercase signature', { signature: signed.signature.toUpperCase() }],
      ['a truncated signature', { signature: signed.signature.slice(0, 63) }],
      [
        'a flipped last character',
        { signature: signed.signature.slice(0, 63) + (signed.signature.endsWith('0') ? '1' : '0') },
      ],
    ])('refuses a bad signature: %s', (_name, change) => {
      const { secret: key = secret, ...fields } = change as { secret?: string };
      expect(verifyRequest({ ...signed, ...fields }, key, { now })).toMatchObject({
        ok: false,
        reason: 'bad_signature',
      });
    });

    it('reports a body that is not acceptable JSON as invalid_body, after the header checks', () => {
      const result = verifyRequest({ ...signed, body: '{"a":1,"a":2}' }, secret, { now });
      expect(result).toEqual({
        ok: false,
        reason: 'invalid_body',
        message: 'Refused JSON: duplicate key "a" at position 7',
      });
      expect(verifyRequest({ ...signed, body: '{', timestamp: '1' }, secret, { now })).toMatchObject({
        reason: 'timestamp_too_old',
      });
    });
  });

  describe('verifyCanonicalRequest (the body canonicalised by the caller)', () => {
    const signed = { ...createUser, signature: signRequest(createUser, secret) };
    const canonical = ({ body, ...rest }: typeof signed) => ({
      ...rest,
      canonicalBody: canonicalizeJson(body),
    });

    it.each([
      ['a good signature', {}],
      ['the body respelled', { body: '{ "orgUserId" : "user-1",\n "kyc": true, "tnc": true }' }],
      ['no body', { body: undefined }],
      ['another body', { body: '{"orgUserId":"user-2","kyc":true,"tnc":true}' }],
      ['reordered keys', { body: '{"kyc":true,"orgUserId":"user-1","tnc":true}' }],
      ['a query added', { query: 'a=1' }],
      ['another path', { path: '/api/v1/user' }],
      ['no timestamp', { timestamp: undefined }],
      ['no signature', { signature: undefined }],
      ['a malformed timestamp', { timestamp: '12.5' }],
      ['a timestamp too old', { timestamp: String(nowSeconds - 301) }],
      ['a timestamp too far ahead', { timestamp: String(nowSeconds + 3901) }],
      ['a truncated signature', { signature: signed.signature.slice(0, 63) }],
    ])('answers as verifyRequest does: %s', (_name, change) => {
      const request = { ...signed, ...change } as typeof signed;
      const expected = verifyRequest(request, secret, { now });
      expect(verifyCanonicalRequest(canonical(request), secret, { now })).toEqual(expected);
      expect(verifyCanonicalRequest(canonical(request), 'other-secret', { now }).ok).toBe(false);
    });

    it('signs the canonical body it is given, as is', () => {
      const request = { ...createUser, body: '{"a": 55000.00}', timestamp: String(nowSeconds) };
      const signature = signRequest(request, secret);
      const parts = { path: request.path, timestamp: request.timestamp, signature };
      expect(verifyCanonicalRequest({ ...parts, canonicalBody: '{"a":55000}' }, secret, { now }).ok).toBe(
        true,
      );
      expect(
        verifyCanonicalRequest({ ...parts, canonicalBody: '{"a":55000.00}' }, secret, { now }),
      ).toMatchObject({
        ok: false,
        reason: 'bad_signature',
      });
    });
  });

  describe('readRequestAuthHeaders', () => {
    it('reads the headers case-insensitively from Node, fetch and plain objects', () => {
      const expected = { ok: true, apiKey: 'k', timestamp: '1', signature: 's' };
      expect(readRequestAuthHeaders({ 'x-api-key': 'k', 'x-timestamp': '1', 'x-signature': 's' })).toEqual(
        expected,
      );
      expect(readRequestAuthHeaders({ 'X-API-KEY': 'k', 'X-Timestamp': '1', 'X-SIGNATURE': 's' })).toEqual(
        expected,
      );
      expect(
        readRequestAuthHeaders(new Headers({ 'X-API-KEY': 'k', 'X-TIMESTAMP': '1', 'X-SIGNATURE': 's' })),
      ).toEqual(expected);
    });

    it.each([
      ['X-API-KEY', { 'x-timestamp': '1', 'x-signature': 's' }],
      ['X-API-KEY', { 'x-api-key': '', 'x-timestamp': '1', 'x-signature': 's' }],
      ['X-API-KEY', { 'x-api-key': ['a', 'b'], 'x-timestamp': '1', 'x-signature': 's' }],
      ['X-TIMESTAMP', { 'x-api-key': 'k', 'x-signature': 's' }],
      ['X-SIGNATURE', { 'x-api-key': 'k', 'x-timestamp': '1' }],
    ])('names the missing header %s', (header, headers) => {
      expect(readRequestAuthHeaders(headers)).toEqual({
        ok: false,
        reason: 'missing_header',
        message: `The ${header} header is missing`,
      });
    });
  });
});
