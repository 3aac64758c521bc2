// What a web area answers when a page or a form fails: the status's meaning in words, the error's text,
// and the way back. Rendered by the one exception filter (common/exception.filter.ts).
import { Layout } from './layout.js';
import { Notice } from './ui.js';

const TITLES: Readonly<Record<number, string>> = {
  400: 'That did not work',
  401: 'You are signed out',
  403: 'Not allowed',
  404: 'Not found',
  409: 'That did not work',
  429: 'Too many requests',
  503: 'Unavailable',
};

export function ErrorPage(props: {
  readonly status: number;
  readonly message: string;
  /** What to do next, when the area has advice for this failure (web-areas.ts). */
  readonly hint?: string | undefined;
  readonly area: { readonly name: string; readonly home: string };
}) {
  const title = TITLES[props.status] ?? 'Something went wrong';
  return (
    <Layout title={title} area={props.area}>
      <Notice kind="error">{props.message}</Notice>
      {props.hint && <p>{props.hint}</p>}
      {props.status !== 401 && (
        <p>
          <a href={props.area.home}>Back to the start</a>
        </p>
      )}
    </Layout>
  );
}
