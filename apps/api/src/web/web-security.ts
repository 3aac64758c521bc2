// The security headers of every answer in a web area (docs/decisions.md, "Web pages: security headers and
// CSRF"), set once here through helmet: a Content-Security-Policy that allows no inline script or style and
// no framing, and the rest of helmet's defaults (nosniff, HSTS, same-origin opener and resource policy), with
// no referrer sent to other sites. helmet's middleware is made once and called from the api's one request
// hook (common/request-hooks.ts); @fastify/helmet added two hooks to every request, one of them async, and
// made the middleware again for each page (for the bearer echo target: docs/decisions.md, "Request path: one
// hook for the api's own steps"). The api's JSON routes and /docs are left as they were (Swagger UI needs
// inline scripts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';

import { dropEmptyQueryValues } from './filter-forms.js';
import { isWebPath, webAreaOf } from './web-areas.js';

/** The policy, directive by directive; the browser tests read it back from every page. */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  // The console draws KYC PDFs with pdf.js, whose worker is served from /assets (public/kyc-pdf.mjs).
  'worker-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
} as const;

const securityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: Object.fromEntries(
      Object.entries(CONTENT_SECURITY_POLICY).map(([name, values]) => [name, [...values]]),
    ),
  },
  // No referrer to other sites (a sign-in link carries a token in its query). Not no-referrer: with it,
  // browsers send `Origin: null` on our own forms, and the sign-in form is checked by its Origin.
  referrerPolicy: { policy: 'same-origin' },
});

/** What a request to a web area gets: the security headers, and its filter form's empty values dropped. */
export function prepareWebRequest(request: FastifyRequest, reply: FastifyReply): void {
  const inArea = webAreaOf(request.url) !== undefined;
  if (!inArea && !isWebPath(request.url)) return;
  // helmet's middleware is synchronous: it sets the headers and calls back at once, never with an error.
  securityHeaders(request.raw, reply.raw, (error) => {
    if (error) throw error as Error;
  });
  if (inArea) dropEmptyQueryValues(request);
}
