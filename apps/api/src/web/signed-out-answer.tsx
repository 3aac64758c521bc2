// What a page of an area with its own sign-in page (the operator console) answers when it is asked for
// without a session: a redirect to the sign-in page, which returns here afterwards. Its session cookie is
// SameSite=Strict, so a browser leaves it off a navigation that came from another site (a link in a chat,
// or the redirects back from a single sign-on provider): such a load gets a page that reloads itself at
// once from this origin, which sends the cookie; only a same-site load without a session goes to sign-in.
import type { FastifyRequest } from 'fastify';

import { Layout } from './components/layout.js';
import { renderHtml } from './web-answer.js';
import { type WebArea, webAreaHome } from './web-areas.js';

export type SignedOutAnswer =
  | { readonly kind: 'redirect'; readonly location: string }
  /** `location`: the same page, reloaded (the answer's Refresh header and the page's own refresh). */
  | { readonly kind: 'reload'; readonly location: string; readonly html: string };

/**
 * Where a page of `area` sends a browser without a session, or null when the area has no sign-in page or
 * the request is not a page load (a form, a HEAD).
 */
export function signedOutAnswer(area: WebArea, request: FastifyRequest): SignedOutAnswer | null {
  if (area.signIn === undefined || request.method !== 'GET') return null;
  if (request.headers['sec-fetch-site'] === 'cross-site') {
    return {
      kind: 'reload',
      location: request.url,
      html: renderHtml(<ReloadPage area={area} url={request.url} />),
    };
  }
  const path = request.url.split('?')[0] ?? '';
  const back =
    path === `${area.path}/` || path === area.path ? '' : `?next=${encodeURIComponent(request.url)}`;
  return { kind: 'redirect', location: `${area.signIn}${back}` };
}

/** A relative path of `area` to return to after signing in, or the area's home for anything else. */
export function returnPath(area: WebArea, next: unknown): string {
  const home = `${area.path}/`;
  if (typeof next !== 'string' || next.length > 2000) return home;
  // Only a path of this area on this origin: no scheme, no host (`//`), no backslash, no control character.
  const ok =
    (next === area.path || next.startsWith(`${area.path}/`) || next.startsWith(`${area.path}?`)) &&
    !/[\\\s\p{Cc}]/u.test(next) &&
    !next.includes('//');
  return ok ? next : home;
}

function ReloadPage(props: { readonly area: WebArea; readonly url: string }) {
  return (
    <Layout
      title="Continuing"
      area={webAreaHome(props.area)}
      head={<meta http-equiv="refresh" content={`0; url=${props.url}`} />}
    >
      <p>
        <a href={props.url}>Continue to the page</a>
      </p>
    </Layout>
  );
}
