import {
  fingerprintOf,
  keepsAnswer,
  readIdempotencyKey,
  replayedHeaders,
  sameRequest,
} from './idempotency-rules.js';

describe('Idempotency-Key rules', () => {
  it('reads a bare key and the quoted form of the draft as the same key', () => {
    expect(readIdempotencyKey(undefined)).toBeUndefined();
    expect(readIdempotencyKey('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe(
      '8e03978e-40d5-43e8-bc93-6894a57f9324',
    );
    expect(readIdempotencyKey('"abc"')).toBe('abc');
    expect(readIdempotencyKey('k'.repeat(255))).toHaveLength(255);
    expect(readIdempotencyKey('"')).toBe('"');
  });

  it.each([[''], ['""'], ['k'.repeat(256)], ['a b'], ['tab\t'], ['clé'], ['"a"b"'], [['a', 'b']]])(
    'refuses %j with a 400 naming the header',
    (value) => {
      expect(() => readIdempotencyKey(value)).toThrow(
        /^Bad Request: Idempotency-Key must be 1 to 255 visible ASCII/,
      );
    },
  );

  it('compares method, target and the raw bytes of the body', () => {
    const body = Buffer.from('{"amount":55.50}');
    const first = fingerprintOf('POST', '/api/v1/orders/', body);
    expect(sameRequest(first, fingerprintOf('POST', '/api/v1/orders/', Buffer.from(body)))).toBe(true);
    // The same value, other bytes: another request.
    expect(sameRequest(first, fingerprintOf('POST', '/api/v1/orders/', Buffer.from('{"amount":55.5}')))).toBe(
      false,
    );
    expect(sameRequest(first, fingerprintOf('POST', '/api/v1/orders/?x=1', body))).toBe(false);
    expect(sameRequest(first, fingerprintOf('PATCH', '/api/v1/orders/', body))).toBe(false);
    expect(
      sameRequest(fingerprintOf('DELETE', '/w', undefined), fingerprintOf('DELETE', '/w', Buffer.alloc(0))),
    ).toBe(true);
  });

  it('keeps every answer but 400, 408, 429 and 5xx', () => {
    expect([200, 201, 403, 404, 409, 413, 422].every(keepsAnswer)).toBe(true);
    expect([400, 408, 429, 500, 502, 503].some(keepsAnswer)).toBe(false);
  });

  it('replays the headers that describe the body, not those of one answer', () => {
    expect(
      replayedHeaders({
        'content-type': 'application/json; charset=utf-8',
        'content-length': 42,
        'x-request-id': 'r-1',
        'cache-control': 'no-store',
        link: ['<a>', '<b>'],
      }),
    ).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      link: '<a>, <b>',
    });
  });
});
