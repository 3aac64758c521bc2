// verifyWebhook, the test-delivery helpers and the handler's decisions, on the protocol package's
// published webhook vectors and on deliveries built here; real deliveries are in webhook-delivery.e2e.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  createWebhookHandler,
  isEntityEvent,
  isKycEvent,
  testWebhook,
  testWebhookHeaders,
  verifyWebhook,
  verifyWebhookMessage,
  WebhookVerificationError,
  type WebhookEvent,
} from '../src/index.js';

interface WebhookVector {
  name: string;
  secret: string;
  payload: string;
  timestamp: number;
  signature: string;
}

const vectors = (
  JSON.parse(
    readFileSync(
      join(require.resolve('@svc/protocol/package.json'), '..', 'vectors', 'webhook-signing.json'),
      'utf8',
    ),
  ) as { vectors: WebhookVector[] }
).vectors;

const headersOf = (v: WebhookVector) => ({
  'svc-signature': v.signature,
  'svc-timestamp': String(v.timestamp),
});

const SECRET = 'whsec_unit-tests-0123456789';
const userEvent: WebhookEvent = {
  event: {
    orgId: 1,
    entity: 'Users',
    numRetries: 0,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  },
  data: { orgUserId: 'u-1', orgId: 1, kyc: false, tnc: true, userStatus: 'PENDING', userType: 'CONSUMER' },
};

function reasonOf(fn: () => unknown): { reason: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return { reason: error.reason, message: error.message };
    throw error;
  }
  throw new Error('did not throw');
}

describe('verifyWebhook on the published vectors', () => {
  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const body = JSON.parse(v.payload) as Record<string, unknown>;
    const options = { now: v.timestamp };
    if (typeof body.challenge === 'string') {
      expect(verifyWebhookMessage(v.payload, headersOf(v), v.secret, options)).toEqual({
        type: 'challenge',
        challenge: body.challenge,
      });
      expect(reasonOf(() => verifyWebhook(v.payload, headersOf(v), v.secret, options)).reason).toBe(
        'challenge',
      );
    } else if (typeof body.event === 'object') {
      const event = verifyWebhook(Buffer.from(v.payload, 'utf8'), headersOf(v), v.secret, options);
      expect(event).toEqual(body);
    } else {
      // Signed correctly, but not an event: the signature passes, the payload is refused.
      expect(reasonOf(() => verifyWebhook(v.payload, headersOf(v), v.secret, options)).reason).toBe(
        'invalid_payload',
      );
    }
    const tampered = v.signature.slice(0, -1) + (v.signature.endsWith('0') ? '1' : '0');
    const headers = { ...headersOf(v), 'svc-signature': tampered };
    expect(reasonOf(() => verifyWebhook(v.payload, headers, v.secret, options)).reason).toBe('bad_signature');
  });
});

describe('verifyWebhook refusals', () => {
  const now = 1_750_000_000_000;
  const { body, headers } = testWebhook(userEvent, SECRET, { timestamp: now, eventId: 'e-1' });

  it('returns the typed event, which narrows by entity', () => {
    const event = verifyWebhook(body, headers, SECRET, { now });
    expect(isEntityEvent(event, 'Users') && event.data.orgUserId).toBe('u-1');
    expect(isKycEvent(event)).toBe(false);
  });

  it('names a missing header, a malformed or stale timestamp', () => {
    expect(reasonOf(() => verifyWebhook(body, { 'svc-timestamp': String(now) }, SECRET, { now }))).toEqual({
      reason: 'missing_header',
      message: 'The svc-signature header is missing',
    });
    expect(
      reasonOf(() => verifyWebhook(body, { ...headers, 'svc-timestamp': '12.5' }, SECRET, { now })).reason,
    ).toBe('malformed_timestamp');
    expect(reasonOf(() => verifyWebhook(body, headers, SECRET, { now: now + 5 * 60_000 + 1 })).reason).toBe(
      'timestamp_too_old',
    );
    expect(
      reasonOf(() => verifyWebhook(body, headers, SECRET, { now: now - 1001, toleranceMs: 1000 })).reason,
    ).toBe('timestamp_too_far_ahead');
    expect(() => verifyWebhook(body, headers, SECRET, { now, toleranceMs: -1 })).toThrow(RangeError);
  });

  it('hints that the body was parsed when it is given an object', () => {
    const parsed = JSON.parse(body) as unknown;
    const { reason, message } = reasonOf(() => verifyWebhook(parsed as string, headers, SECRET, { now }));
    expect(reason).toBe('parsed_body');
    expect(message).toMatch(/already parsed.*express\.raw/);
    expect(reasonOf(() => verifyWebhook('[object Object]', headers, SECRET, { now })).message).toMatch(
      /re-serialised/,
    );
  });

  it('hints at stray whitespace in the secret', () => {
    const { reason, message } = reasonOf(() => verifyWebhook(body, headers, `${SECRET}\n`, { now }));
    expect(reason).toBe('bad_signature');
    expect(message).toMatch(/leading or trailing whitespace/);
  });

  it('a signed body that is not a known event is invalid_payload, naming the field', () => {
    const bad = testWebhook('{"event":{"orgId":1,"entity":"Nope"},"data":{}}', SECRET, { timestamp: now });
    expect(reasonOf(() => verifyWebhook(bad.body, bad.headers, SECRET, { now })).message).toMatch(
      /event\.entity/,
    );
  });

  it('testWebhookHeaders signs the exact bytes given, with an event id', () => {
    const text = '{"challenge":"abc"}';
    const signed = testWebhookHeaders(text, SECRET);
    expect(signed['svc-event-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(signed['content-type']).toBe('application/json');
    expect(verifyWebhookMessage(text, signed, SECRET)).toEqual({ type: 'challenge', challenge: 'abc' });
  });
});

describe('several secrets while the secret changes (docs/api-guide.md#changing-the-url-or-the-secret)', () => {
  const now = 1_750_000_000_000;
  const OLD = 'whsec_the-old-secret-0123';
  const NEW = 'whsec_the-new-secret-4567';
  const signedWith = (secret: string) => testWebhook(userEvent, secret, { timestamp: now, eventId: 'e-1' });

  it('verifyWebhook accepts a delivery signed with the old or the new secret, and a challenge with either', () => {
    for (const secret of [OLD, NEW]) {
      const { body, headers } = signedWith(secret);
      expect(verifyWebhook(body, headers, [OLD, NEW], { now })).toEqual(userEvent);
      const challenge = testWebhook({ challenge: 'c' }, secret, { timestamp: now });
      expect(verifyWebhookMessage(challenge.body, challenge.headers, [OLD, NEW], { now })).toEqual({
        type: 'challenge',
        challenge: 'c',
      });
    }
    const { body, headers } = signedWith(NEW);
    expect(verifyWebhook(body, headers, [NEW], { now })).toEqual(userEvent);
  });

  it('refuses a delivery signed with neither, with the whitespace hint when one of them has it', () => {
    const { body, headers } = signedWith('whsec_some-retired-secret');
    expect(reasonOf(() => verifyWebhook(body, headers, [OLD, NEW], { now })).reason).toBe('bad_signature');
    expect(reasonOf(() => verifyWebhook(body, headers, [OLD, ` ${NEW}`], { now })).message).toMatch(
      /leading or trailing whitespace/,
    );
  });

  it.each([
    ['an empty list', []],
    ['a list with an empty secret', [OLD, '']],
    ['a list with something else', [OLD, 7]],
    ['an empty string', ''],
  ])('throws a TypeError for %s (never verifies without a key)', (_name, secret) => {
    const { body, headers } = signedWith(OLD);
    expect(() => verifyWebhook(body, headers, secret as string[], { now })).toThrow(TypeError);
    expect(() => createWebhookHandler({ secret: secret as string[], onEvent: () => undefined })).toThrow(
      TypeError,
    );
  });

  it('createWebhookHandler with both secrets answers challenges and events signed with either', async () => {
    const seen: string[] = [];
    const handler = createWebhookHandler({
      secret: [OLD, NEW],
      onEvent: (_event, { eventId }) => {
        seen.push(eventId ?? '');
      },
    });
    for (const secret of [OLD, NEW]) {
      const challenge = testWebhook({ challenge: `c-${secret}` }, secret);
      expect(await handler.handle(challenge.body, challenge.headers)).toMatchObject({
        status: 200,
        body: `c-${secret}`,
      });
      const event = testWebhook(userEvent, secret, { eventId: secret });
      expect((await handler.handle(event.body, event.headers)).status).toBe(200);
    }
    const stranger = testWebhook(userEvent, 'whsec_not-one-of-them-000');
    expect((await handler.handle(stranger.body, stranger.headers)).status).toBe(400);
    expect(seen).toEqual([OLD, NEW]);
  });

  it('the handler keeps its own copy of the list: changing the array later changes nothing', async () => {
    const secrets = [OLD];
    const handler = createWebhookHandler({ secret: secrets, onEvent: () => undefined });
    secrets[0] = NEW;
    const { body, headers } = testWebhook(userEvent, OLD);
    expect((await handler.handle(body, headers)).status).toBe(200);
  });
});

describe('createWebhookHandler decisions', () => {
  it('answers 200 only after onEvent resolved, 500 when it throws, 400 when unverified', async () => {
    let resolveWork: () => void = () => undefined;
    const errors: unknown[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      onEvent: () => new Promise<void>((resolve) => (resolveWork = resolve)),
      onError: (error) => errors.push(error),
    });
    const { body, headers } = testWebhook(userEvent, SECRET);
    let settled = false;
    const answer = handler.handle(body, headers).then((a) => ((settled = true), a));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    resolveWork();
    expect(await answer).toEqual({ status: 200, body: '', headers: {} });

    const failing = createWebhookHandler({
      secret: SECRET,
      onEvent: () => Promise.reject(new Error('database down')),
      onError: (error) => errors.push(error),
    });
    expect((await failing.handle(body, headers)).status).toBe(500);
    expect((await failing.handle(body, { ...headers, 'svc-signature': '0'.repeat(64) })).status).toBe(400);
    expect(errors.map((e) => (e as Error).message)).toEqual([
      'database down',
      expect.stringMatching(/does not match/),
    ]);
  });

  it('answers a challenge with its string', async () => {
    const handler = createWebhookHandler({ secret: SECRET, onEvent: () => undefined });
    const { body, headers } = testWebhook({ challenge: 'c-123' }, SECRET);
    expect(await handler.handle(body, headers)).toEqual({
      status: 200,
      body: 'c-123',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  });

  it('with dedupe, calls onEvent once per svc-event-id, also for concurrent duplicates, and again after a failure', async () => {
    const calls: string[] = [];
    let fail = true;
    const handler = createWebhookHandler({
      secret: SECRET,
      dedupe: true,
      onEvent: async (_event, { eventId }) => {
        calls.push(eventId ?? '');
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (fail) throw new Error('first attempt fails');
      },
    });
    const first = testWebhook(userEvent, SECRET, { eventId: 'e-1' });
    expect((await handler.handle(first.body, first.headers)).status).toBe(500);
    fail = false;
    const again = testWebhook(userEvent, SECRET, { eventId: 'e-1' });
    const answers = await Promise.all([
      handler.handle(again.body, again.headers),
      handler.handle(again.body, again.headers),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect((await handler.handle(again.body, again.headers)).status).toBe(200);
    expect(calls).toEqual(['e-1', 'e-1']);
  });
});
