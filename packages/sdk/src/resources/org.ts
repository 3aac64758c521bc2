// The client's `org` group: the caller's organisation.
import type { RequestOptions } from '../transport.js';
import type { Organisation } from '../types.js';
import { path, type Call } from './call.js';

export class OrgResource {
  constructor(private readonly call: Call) {}

  /** GET /api/v1/org/: the caller's organisation. Needs BASE_MODULE:READ with a token. */
  get(options?: RequestOptions): Promise<Organisation> {
    return this.call({ method: 'GET', path: path('org'), idempotent: true }, options);
  }
}
