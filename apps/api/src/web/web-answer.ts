// What a page handler answers: a rendered page (with its status) or a redirect after a form (303, so the
// browser follows with a GET). WebPageInterceptor turns it into the HTTP answer.
import type { VNode } from 'preact';
import { renderToStaticMarkup } from 'preact-render-to-string';

export type WebAnswer =
  | { readonly kind: 'page'; readonly html: string; readonly status: number }
  | { readonly kind: 'redirect'; readonly location: string };

/** The page as an HTML document. */
export function page(content: VNode, status = 200): WebAnswer {
  return { kind: 'page', html: renderHtml(content), status };
}

/** After a form: where the browser goes next (a path of this api). */
export function redirectTo(location: string): WebAnswer {
  return { kind: 'redirect', location };
}

export function renderHtml(content: VNode): string {
  return `<!doctype html>${renderToStaticMarkup(content)}`;
}
