// Forms of a web area: every POST form carries the session's CSRF token (common/csrf-tokens.ts).
import type { ComponentChildren } from 'preact';

import { CSRF_FIELD } from '../../common/csrf-tokens.js';

export function CsrfField(props: { readonly token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={props.token} />;
}

export interface PostFormProps {
  readonly action: string;
  readonly csrf: string;
  /** A question web.js asks before sending (progressive enhancement: without script it just sends). */
  readonly confirm?: string;
  readonly class?: string;
  readonly label?: string;
  readonly children?: ComponentChildren;
}

export function PostForm(props: PostFormProps) {
  return (
    <form
      method="post"
      action={props.action}
      class={props.class}
      data-confirm={props.confirm}
      aria-label={props.label}
    >
      <CsrfField token={props.csrf} />
      {props.children}
    </form>
  );
}
