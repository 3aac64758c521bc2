// What every resource group of the client shares: the call through the transport, the path of an
// endpoint, and the checks and paging fields of its arguments.
import type { PageParams } from '../types.js';
import type { ApiRequest, RequestOptions } from '../transport.js';

export type Call = <T>(request: ApiRequest, options?: RequestOptions) => Promise<T>;

/** `/api/v1/user/{id}/…/`: each segment escaped, trailing slash as the API guide writes paths. */
export function path(...segments: string[]): string {
  return `/api/v1/${segments.map((segment) => encodeURIComponent(segment)).join('/')}/`;
}

export function requireId(name: string, value: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string`);
  return value;
}

/** The paging fields of a list's params (limit, cursor), each left out when not given. */
export function pick(params: PageParams): PageParams {
  return {
    ...(params.limit === undefined ? {} : { limit: params.limit }),
    ...(params.cursor === undefined ? {} : { cursor: params.cursor }),
  };
}
