// The client signs exactly as the protocol's published request vectors say: each vector's request sent
// through client.request() with the vector's secret and clock gives the vector's X-TIMESTAMP and
// X-SIGNATURE, and the body and query go on the wire as signed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CanonicalJsonError } from '@svc/protocol';

import { SvcClient, SvcValidationError, type FetchLike } from '../src/index.js';

interface RequestVector {
  name: string;
  secret: string;
  path: string;
  query: string;
  body: string;
  timestamp: string;
  signature: string;
}

const { vectors, invalid } = JSON.parse(
  readFileSync(
    join(require.resolve('@svc/protocol/package.json'), '..', 'vectors', 'request-signing.json'),
    'utf8',
  ),
) as { vectors: RequestVector[]; invalid: { name: string; body: string; reason: string; path?: string }[] };

describe('request signing on the published vectors', () => {
  it.each(vectors.map((v, i) => [v.name, v, i] as const))('%s', async (_name, v, index) => {
    const sent: { url: string; headers: Record<string, string>; body: unknown }[] = [];
    const capture: FetchLike = (url, init) => {
      sent.push({ url, headers: init.headers as Record<string, string>, body: init.body });
      return Promise.resolve(
        new Response('{"code":200,"data":{},"error":null}', {
          headers: { 'content-type': 'application/json' },
        }),
      );
    };
    const client = new SvcClient({
      baseUrl: 'http://127.0.0.1:1',
      // A key of its own per vector: vectors that share a request must not see each other's signatures.
      apiKey: `pk_vector_${index}`,
      apiSecret: v.secret,
      now: () => Number(v.timestamp) * 1000,
      fetch: capture,
    });
    await client.request({
      method: v.body === '' ? 'GET' : 'POST',
      path: v.path,
      query: v.query,
      ...(v.body === '' ? {} : { body: { kind: 'text', text: v.body } }),
      idempotent: false,
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['x-timestamp']).toBe(v.timestamp);
    expect(sent[0]!.headers['x-signature']).toBe(v.signature);
    expect(sent[0]!.url).toBe(`http://127.0.0.1:1${v.path}${v.query === '' ? '' : `?${v.query}`}`);
    expect(sent[0]!.body).toBe(v.body === '' ? undefined : v.body);
  });
});

describe('bodies the vectors say must be refused', () => {
  it.each(invalid.filter((v) => v.reason === 'ambiguous_number').map((v) => [v.name, v] as const))(
    'refuses to sign and send %s',
    async (_name, v) => {
      const sent: string[] = [];
      const client = new SvcClient({
        baseUrl: 'http://127.0.0.1:1',
        apiKey: 'pk_vector_refused',
        apiSecret: 'sk_vector_refused',
        fetch: (url) => {
          sent.push(url);
          return Promise.resolve(new Response('{"code":200,"data":{},"error":null}'));
        },
      });
      const call = client.request({
        method: 'POST',
        path: '/api/v1/orders/',
        body: { kind: 'text', text: v.body },
        idempotent: true,
      });
      await expect(call).rejects.toBeInstanceOf(SvcValidationError);
      const error = (await call.catch((caught: unknown) => caught)) as SvcValidationError;
      expect(error.status).toBeUndefined();
      expect(error.message).toContain(`POST /api/v1/orders/: not sent: Refused JSON: ${v.path}: the number`);
      expect(error.cause).toBeInstanceOf(CanonicalJsonError);
      expect(error.cause).toMatchObject({ reason: 'ambiguous_number' });
      expect(sent).toEqual([]);
    },
  );
});
