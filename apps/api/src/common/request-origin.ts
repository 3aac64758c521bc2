// The scheme and host a request was sent to. Fastify reads them from X-Forwarded-Proto and X-Forwarded-Host
// only when the connection comes from a proxy TRUST_PROXY names; otherwise from the connection and its Host
// header, which a client cannot bend to name another site than the one it called. Links the api hands out
// start with PUBLIC_URL when it is set (always, in production) and with this only outside production.
import type { FastifyRequest } from 'fastify';

export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** Where people reach the api: PUBLIC_URL (without a trailing slash), else where `request` was sent. */
export function publicOrigin(request: FastifyRequest, publicUrl: string | null): string {
  return publicUrl ?? requestOrigin(request);
}
