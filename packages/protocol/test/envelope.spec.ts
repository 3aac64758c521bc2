import {
  errorEnvelope,
  insufficientScopeBody,
  isEnvelope,
  isInsufficientScopeBody,
  isSuccessEnvelope,
  successEnvelope,
} from '../src/index.js';

describe('envelope (docs/api-guide.md#the-envelope)', () => {
  it('wraps data as {code: 200, data, error: null}, in that key order', () => {
    expect(JSON.stringify(successEnvelope({ orgUserId: 'u-1' }))).toBe(
      '{"code":200,"data":{"orgUserId":"u-1"},"error":null}',
    );
  });

  it('writes the token refusal: code 401, data null, error Forbidden', () => {
    expect(JSON.stringify(errorEnvelope(401, 'Forbidden'))).toBe(
      '{"code":401,"data":null,"error":"Forbidden"}',
    );
  });

  it('refuses an error envelope with a success or non-HTTP code', () => {
    expect(() => errorEnvelope(200, 'x')).toThrow(RangeError);
    expect(() => errorEnvelope(600, 'x')).toThrow(RangeError);
  });

  it("applies the API guide's success check: code 200, error empty, data present", () => {
    expect(isSuccessEnvelope(successEnvelope({}))).toBe(true);
    expect(isSuccessEnvelope({ code: 200, data: {}, error: '' })).toBe(true);
    expect(isSuccessEnvelope({ code: 200, data: null, error: null })).toBe(false);
    expect(isSuccessEnvelope({ code: 200, data: {}, error: 'x' })).toBe(false);
    expect(isSuccessEnvelope(errorEnvelope(404, 'Not Found'))).toBe(false);
  });

  it('recognises envelopes', () => {
    expect(isEnvelope(successEnvelope([]))).toBe(true);
    expect(isEnvelope(errorEnvelope(500, 'x'))).toBe(true);
    expect(isEnvelope({ code: 200, error: null })).toBe(false);
    expect(isEnvelope({ code: '200', data: null, error: null })).toBe(false);
    expect(isEnvelope(insufficientScopeBody('BASE_MODULE:WRITE'))).toBe(false);
  });
});

describe('insufficient scope body (docs/api-guide.md#errors)', () => {
  it('is {message, status: 401}, not the envelope, and says the caller is not authorized', () => {
    const body = insufficientScopeBody('BASE_MODULE:WRITE');
    expect(Object.keys(body)).toEqual(['message', 'status']);
    expect(body.status).toBe(401);
    expect(body.message).toMatch(/not authorized/);
    expect(body.message).toContain('BASE_MODULE:WRITE');
    expect(isInsufficientScopeBody(body)).toBe(true);
    expect(isInsufficientScopeBody(errorEnvelope(401, 'Forbidden'))).toBe(false);
  });
});
