// The success line a page shows after its form (?done=<action>): the page's own words for each action.
import { Notice } from '../../web/components/ui.js';

export function Done(props: {
  readonly done: string | undefined;
  readonly messages: Readonly<Record<string, string>>;
}) {
  const text = props.done === undefined ? undefined : props.messages[props.done];
  return text === undefined ? null : <Notice kind="success">{text}</Notice>;
}

/** The operator's role opens `role`'s forms (auth/roles.ts). */
export { grantsRole as mayAct } from '../../auth/roles.js';
