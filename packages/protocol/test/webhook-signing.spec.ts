import { createHmac } from 'node:crypto';

import {
  DEFAULT_WEBHOOK_TOLERANCE_MS,
  isChallenge,
  signWebhook,
  verifyWebhookRequest,
  verifyWebhookSignature,
  webhookHeaders,
  webhookSigningMessage,
} from '../src/index.js';

const secret = 'whsec-customer-chosen';
const now = Date.UTC(2026, 10, 21, 12, 0, 0, 123);
const payload = '{"event":{"orgId":7,"entity":"Users","numRetries":0},"data":{"orgUserId":"u-1"}}';

describe('webhook signing (docs/api-guide.md#webhook-signatures)', () => {
  it('signs {"payload":P,"timestamp":N} with the body text verbatim and N a number', () => {
    const message = `{"payload":${payload},"timestamp":${now}}`;
    expect(webhookSigningMessage(payload, now)).toBe(message);
    expect(signWebhook(payload, secret, now)).toBe(
      createHmac('sha256', secret).update(message).digest('hex'),
    );
  });

  it('signs the bytes of a Buffer body exactly as their text', () => {
    const body = '{"data":{"name":"Zoë"} , "x": 1.50}';
    expect(signWebhook(Buffer.from(body), secret, now)).toBe(signWebhook(body, secret, now));
  });

  it('refuses a timestamp that is not whole milliseconds', () => {
    expect(() => signWebhook(payload, secret, 1.5)).toThrow(RangeError);
    expect(() => webhookSigningMessage(payload, -1)).toThrow(RangeError);
  });

  it('builds the headers of one attempt, with the event id when given', () => {
    const headers = webhookHeaders(payload, secret, { eventId: 'evt-1', timestamp: now });
    expect(headers).toEqual({
      'content-type': 'application/json',
      'svc-signature': signWebhook(payload, secret, now),
      'svc-timestamp': String(now),
      'svc-event-id': 'evt-1',
    });
    expect(webhookHeaders(payload, secret, { timestamp: now })).not.toHaveProperty('svc-event-id');
  });

  describe('verifyWebhookSignature', () => {
    const signed = { payload, signature: signWebhook(payload, secret, now), timestamp: String(now) };

    it('accepts the signed body and returns the timestamp', () => {
      expect(verifyWebhookSignature(signed, secret, { now })).toEqual({ ok: true, timestamp: now });
    });

    it.each([
      ['svc-signature', { signature: undefined }],
      ['svc-timestamp', { timestamp: undefined }],
      ['svc-timestamp', { timestamp: '' }],
    ])('reports the missing %s header', (header, change) => {
      expect(verifyWebhookSignature({ ...signed, ...change }, secret, { now })).toEqual({
        ok: false,
        reason: 'missing_header',
        message: `The ${header} header is missing`,
      });
    });

    it.each(['1.5', '-1', 'now', '1e12', '1234567890123456'])(
      'reports the malformed timestamp %j',
      (timestamp) => {
        expect(verifyWebhookSignature({ ...signed, timestamp }, secret, { now })).toMatchObject({
          reason: 'malformed_timestamp',
        });
      },
    );

    it('accepts five minutes either way by default, bounds included', () => {
      for (const at of [now - DEFAULT_WEBHOOK_TOLERANCE_MS, now + DEFAULT_WEBHOOK_TOLERANCE_MS]) {
        const input = { payload, signature: signWebhook(payload, secret, at), timestamp: String(at) };
        expect(verifyWebhookSignature(input, secret, { now }).ok).toBe(true);
      }
    });

    it('refuses a timestamp too old or too far ahead', () => {
      const old = now - DEFAULT_WEBHOOK_TOLERANCE_MS - 1;
      const ahead = now + DEFAULT_WEBHOOK_TOLERANCE_MS + 1;
      const sign = (at: number) => ({
        payload,
        signature: signWebhook(payload, secret, at),
        timestamp: String(at),
      });
      expect(verifyWebhookSignature(sign(old), secret, { now })).toEqual({
        ok: false,
        reason: 'timestamp_too_old',
        message: 'svc-timestamp is more than 300000 ms in the past',
      });
      expect(verifyWebhookSignature(sign(ahead), secret, { now })).toMatchObject({
        reason: 'timestamp_too_far_ahead',
      });
    });

    it('treats a tolerance of 0 as exactly now, never as off', () => {
      expect(verifyWebhookSignature(signed, secret, { now, toleranceMs: 0 }).ok).toBe(true);
      expect(verifyWebhookSignature(signed, secret, { now: now + 1, toleranceMs: 0 })).toMatchObject({
        reason: 'timestamp_too_old',
      });
      expect(() => verifyWebhookSignature(signed, secret, { now, toleranceMs: -1 })).toThrow(RangeError);
    });

    it.each([
      ['another secret', signed, 'other'],
      ['a changed body', { ...signed, payload: payload.replace('u-1', 'u-2') }, secret],
      ['a re-serialised body', { ...signed, payload: JSON.stringify(JSON.parse(payload), null, 1) }, secret],
      ['another timestamp', { ...signed, timestamp: String(now + 1) }, secret],
      ['an uppercase signature', { ...signed, signature: signed.signature.toUpperCase() }, secret],
    ])('refuses a bad signature: %s', (_name, input, key) => {
      expect(verifyWebhookSignature(input, key, { now })).toMatchObject({
        ok: false,
        reason: 'bad_signature',
      });
    });

    it('reads the headers from a request', () => {
      const headers = webhookHeaders(payload, secret, { timestamp: now });
      expect(verifyWebhookRequest(payload, headers, secret, { now })).toEqual({ ok: true, timestamp: now });
      expect(verifyWebhookRequest(payload, new Headers({ ...headers }), secret, { now }).ok).toBe(true);
      expect(verifyWebhookRequest(payload, {}, secret, { now })).toMatchObject({ reason: 'missing_header' });
    });

    describe('several secrets, while the secret changes', () => {
      const next = 'whsec-the-new-one';
      const signedWith = (key: string) => ({
        payload,
        signature: signWebhook(payload, key, now),
        timestamp: String(now),
      });

      it('accepts a delivery signed with any secret of the list, in any position', () => {
        for (const key of [secret, next]) {
          expect(verifyWebhookSignature(signedWith(key), [secret, next], { now })).toEqual({
            ok: true,
            timestamp: now,
          });
          expect(verifyWebhookSignature(signedWith(key), [next, secret], { now }).ok).toBe(true);
        }
        expect(verifyWebhookSignature(signedWith(next), [next], { now }).ok).toBe(true);
      });

      it('refuses a delivery signed with a secret outside the list, and still checks the timestamp', () => {
        expect(verifyWebhookSignature(signedWith('whsec-retired'), [secret, next], { now })).toMatchObject({
          ok: false,
          reason: 'bad_signature',
        });
        expect(
          verifyWebhookSignature(signedWith(next), [secret, next], { now: now + 10 * 60 * 1000 }),
        ).toMatchObject({ ok: false, reason: 'timestamp_too_old' });
      });

      it('throws for an empty list or a list with something other than strings (never "no check")', () => {
        expect(() => verifyWebhookSignature(signedWith(secret), [], { now })).toThrow(TypeError);
        expect(() =>
          verifyWebhookSignature(signedWith(secret), [secret, 5 as unknown as string], { now }),
        ).toThrow(TypeError);
      });
    });
  });

  describe('isChallenge (docs/api-guide.md#registration-and-the-challenge)', () => {
    it('tells a challenge body from an event body', () => {
      expect(isChallenge({ challenge: 'abc' })).toBe(true);
      expect(isChallenge(JSON.parse('{"challenge":"","extra":1}'))).toBe(true);
      expect(isChallenge({ event: {}, data: {} })).toBe(false);
      expect(isChallenge({ challenge: 5 })).toBe(false);
      expect(isChallenge(Object.create({ challenge: 'inherited' }))).toBe(false);
      expect(isChallenge(null)).toBe(false);
      expect(isChallenge('challenge')).toBe(false);
    });
  });
});
