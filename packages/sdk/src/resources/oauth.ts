// The client's `oauth` group: the token test endpoint.
import type { RequestOptions } from '../transport.js';
import type { JsonObject } from '../types.js';
import type { Call } from './call.js';

export class OAuthResource {
  constructor(private readonly call: Call) {}

  /** POST /api/v1/oauth/test (docs/api-guide.md#oauth-client-credentials): answers the object sent. Needs BASE_MODULE:WRITE with a token. */
  test<T extends JsonObject>(body: T, options?: RequestOptions): Promise<T> {
    return this.call(
      { method: 'POST', path: '/api/v1/oauth/test', body: { kind: 'json', value: body }, idempotent: false },
      options,
    );
  }
}
