// The client's `positions` group: what a user holds.
import type { RequestOptions } from '../transport.js';
import type { Positions } from '../types.js';
import { path, requireId, type Call } from './call.js';

export class PositionsResource {
  constructor(private readonly call: Call) {}

  /** GET /api/v1/user/{orgUserId}/positions/: what the user holds. */
  get(orgUserId: string, options?: RequestOptions): Promise<Positions> {
    return this.call(
      { method: 'GET', path: path('user', requireId('orgUserId', orgUserId), 'positions'), idempotent: true },
      options,
    );
  }
}
