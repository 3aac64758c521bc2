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
  readonly area: {
    readonly name: string;
    readonly home: string;
    /** What to do next, by status (web-areas.ts). */
    readonly hints?: Readonly<Record<number, string>>;
  };
}) {
  const title = TITLES[props.status] ?? 'Something went wrong';
  const hint = props.area.hints?.[props.status];
  return (
    <Layout title={title} area={props.area}>
      <Notice kind="error">{props.message}</Notice>
      {hint && <p>{hint}</p>}
      {props.status !== 401 && (
        <p>
          <a href={props.area.home}>Back to the start</a>
        </p>
      )}
    </Layout>
  );
}
