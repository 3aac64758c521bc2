// The security headers of every answer in a web area (docs/decisions.md, "Dashboard: the web stack"), set
// once here through helmet: a Content-Security-Policy that allows no inline script or style and no framing,
// and the rest of helmet's defaults (nosniff, HSTS, same-origin opener and resource policy), with no
// referrer sent to other sites.
// The api's JSON routes and /docs are left as they were (Swagger UI needs inline scripts).
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

import { isWebPath } from './web-areas.js';

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

export async function setupWebSecurity(app: NestFastifyApplication): Promise<void> {
  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    global: false,
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
  const fastify = app.getHttpAdapter().getInstance();
  // reply.helmet() sets the headers at once (helmet's middleware is synchronous).
  fastify.addHook('onRequest', (request, reply, done) => {
    if (isWebPath(request.url)) reply.helmet();
    done();
  });
}
