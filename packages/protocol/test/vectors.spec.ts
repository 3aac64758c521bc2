// Runs @svc/protocol against the published test vectors in ../vectors/ (written by scripts/vectors.mjs
// from hand-written expectations, never from this library).
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import {
  CanonicalJsonError,
  canonicalizeJson,
  canonicalizeQuery,
  formatJsonPath,
  requestSigningMessage,
  signRequest,
  signWebhook,
  verifyRequest,
  verifyWebhookSignature,
  webhookSigningMessage,
} from '../src/index.js';

interface RequestVector {
  name: string;
  secret: string;
  path: string;
  query: string;
  body: string;
  timestamp: string;
  canonicalBody: string;
  canonicalQuery: string;
  message: string;
  signature: string;
}

interface InvalidBody {
  name: string;
  body: string;
  reason: 'invalid_json' | 'duplicate_key' | 'ambiguous_number';
  /** ambiguous_number only: the JSONPath of the number refused. */
  path?: string;
}

interface WebhookVector {
  name: string;
  secret: string;
  payload: string;
  timestamp: number;
  message: string;
  signature: string;
}

interface RequestDoc {
  description: string;
  algorithm: string;
  vectors: RequestVector[];
  invalid: InvalidBody[];
}

interface WebhookDoc {
  description: string;
  algorithm: string;
  vectors: WebhookVector[];
}

const packageDir = join(__dirname, '..');
const requestFile = join(packageDir, 'vectors', 'request-signing.json');
const webhookFile = join(packageDir, 'vectors', 'webhook-signing.json');
const requestDoc = JSON.parse(readFileSync(requestFile, 'utf8')) as RequestDoc;
const webhookDoc = JSON.parse(readFileSync(webhookFile, 'utf8')) as WebhookDoc;

const hmacHex = (secret: string, message: string): string =>
  createHmac('sha256', secret).update(message, 'utf8').digest('hex');

/** The signature with its last hex digit changed to another hex digit. */
const tamper = (signature: string): string => signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');

/** The request as the library takes it; empty query/body are left out, as a server would see them. */
const requestOf = (v: RequestVector): { path: string; timestamp: string; query?: string; body?: string } => ({
  path: v.path,
  timestamp: v.timestamp,
  ...(v.query === '' ? {} : { query: v.query }),
  ...(v.body === '' ? {} : { body: v.body }),
});

const nowOf = (v: RequestVector): number => Number(v.timestamp) * 1000;

describe('vector files', () => {
  it('have the expected shape and coverage', () => {
    expect(requestDoc.algorithm).toBe('HMAC-SHA256, lowercase hex');
    expect(webhookDoc.algorithm).toBe('HMAC-SHA256, lowercase hex');
    expect(requestDoc.vectors.length).toBeGreaterThanOrEqual(30);
    expect(requestDoc.invalid.length).toBeGreaterThan(0);
    expect(webhookDoc.vectors.length).toBeGreaterThanOrEqual(10);
    const reasons = new Set(requestDoc.invalid.map((v) => v.reason));
    expect([...reasons].sort()).toEqual(['ambiguous_number', 'duplicate_key', 'invalid_json']);
  });

  it.each(requestDoc.vectors.map((v) => [v.name, v] as const))(
    'request %s: message is assembled from the parts and signed with plain HMAC-SHA256',
    (_name, v) => {
      const url = JSON.stringify(v.path);
      const ts = JSON.stringify(v.timestamp);
      expect(v.message).toBe(
        `{"body":${v.canonicalBody},"query":${v.canonicalQuery},"url":${url},"ts":${ts}}`,
      );
      expect(v.signature).toMatch(/^[0-9a-f]{64}$/);
      expect(v.signature).toBe(hmacHex(v.secret, v.message));
    },
  );

  it.each(webhookDoc.vectors.map((v) => [v.name, v] as const))(
    'webhook %s: message is assembled from the parts and signed with plain HMAC-SHA256',
    (_name, v) => {
      expect(Number.isSafeInteger(v.timestamp)).toBe(true);
      expect(v.message).toBe(`{"payload":${v.payload},"timestamp":${v.timestamp}}`);
      expect(v.signature).toMatch(/^[0-9a-f]{64}$/);
      expect(v.signature).toBe(hmacHex(v.secret, v.message));
    },
  );

  it('are up to date with scripts/vectors.mjs', () => {
    const run = spawnSync(process.execPath, [join(packageDir, 'scripts', 'vectors.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('are exported by the package', () => {
    const requireFromHere = createRequire(__filename);
    expect(requireFromHere.resolve('@svc/protocol/vectors/request-signing.json')).toBe(requestFile);
    expect(requireFromHere.resolve('@svc/protocol/vectors/webhook-signing.json')).toBe(webhookFile);
    expect(require.resolve('@svc/protocol/vectors/request-signing.json')).toBe(requestFile);
    expect(require.resolve('@svc/protocol/vectors/webhook-signing.json')).toBe(webhookFile);
  });
});

describe('request signing against the vectors', () => {
  describe.each(requestDoc.vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    it('canonicalizes the body', () => {
      expect(canonicalizeJson(v.body)).toBe(v.canonicalBody);
    });

    it('canonicalizes the query', () => {
      expect(canonicalizeQuery(v.query)).toBe(v.canonicalQuery);
    });

    it('builds the message', () => {
      expect(requestSigningMessage(requestOf(v))).toBe(v.message);
      expect(
        requestSigningMessage({ path: v.path, timestamp: v.timestamp, query: v.query, body: v.body }),
      ).toBe(v.message);
    });

    it('signs', () => {
      expect(signRequest(requestOf(v), v.secret)).toBe(v.signature);
    });

    it('verifies the signature and rejects a one-character change', () => {
      expect(
        verifyRequest({ ...requestOf(v), signature: v.signature }, v.secret, { now: nowOf(v) }),
      ).toMatchObject({
        ok: true,
      });
      const tampered = verifyRequest({ ...requestOf(v), signature: tamper(v.signature) }, v.secret, {
        now: nowOf(v),
      });
      expect(tampered.ok).toBe(false);
    });
  });

  it('treats an undefined body and query like empty ones', () => {
    expect(canonicalizeJson(undefined)).toBe('{}');
    expect(canonicalizeQuery(undefined)).toBe('{}');
  });

  it('accepts the API guide sample signed one hour ahead of the clock (default window)', () => {
    const v = requestDoc.vectors.find((x) => x.name === 'sample: timestamp one hour ahead')!;
    const now = nowOf(v) - 3600 * 1000;
    expect(verifyRequest({ ...requestOf(v), signature: v.signature }, v.secret, { now })).toMatchObject({
      ok: true,
    });
  });

  it.each(requestDoc.invalid.map((v) => [v.name, v] as const))('refuses body: %s', (_name, v) => {
    let thrown: unknown;
    try {
      canonicalizeJson(v.body);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CanonicalJsonError);
    expect((thrown as CanonicalJsonError).reason).toBe(v.reason);
    if (v.path !== undefined) {
      expect(formatJsonPath((thrown as CanonicalJsonError).path)).toBe(v.path);
      expect((thrown as CanonicalJsonError).message).toContain(`${v.path}: the number`);
    }
    // Nothing is signed for such a body: the signing functions refuse it alike.
    expect(() =>
      signRequest({ path: '/api/v1/orders/', body: v.body, timestamp: '1735689600' }, 's'),
    ).toThrow(CanonicalJsonError);
  });
});

describe('webhook signing against the vectors', () => {
  describe.each(webhookDoc.vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    it('builds the message and signs', () => {
      expect(webhookSigningMessage(v.payload, v.timestamp)).toBe(v.message);
      expect(signWebhook(v.payload, v.secret, v.timestamp)).toBe(v.signature);
    });

    it('verifies the signature and rejects a one-character change', () => {
      const input = { payload: v.payload, signature: v.signature, timestamp: String(v.timestamp) };
      expect(verifyWebhookSignature(input, v.secret, { now: v.timestamp })).toEqual({
        ok: true,
        timestamp: v.timestamp,
      });
      const tampered = verifyWebhookSignature({ ...input, signature: tamper(v.signature) }, v.secret, {
        now: v.timestamp,
      });
      expect(tampered.ok).toBe(false);
    });
  });
});
