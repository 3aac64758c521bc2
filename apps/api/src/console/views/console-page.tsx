// The frame of every console page: the web areas' layout with the sections the operator's role opens,
// who is signed in with which role, and sign-out.
import type { ComponentChildren } from 'preact';

import { Layout } from '../../web/components/layout.js';
import { webAreaHome } from '../../web/web-areas.js';
import { CONSOLE_AREA } from '../console-area.js';
import type { ConsoleContext } from '../../operators/console-context.js';
import { sectionsFor } from '../nav.js';

// Where the console's own pages found the area before it had a file of its own (sign-in.controller.tsx).
export { CONSOLE_AREA };
export const CONSOLE_AREA_HOME = webAreaHome(CONSOLE_AREA);

export function ConsolePage(props: {
  readonly ctx: ConsoleContext;
  readonly title: string;
  /** The nav link this page is under. */
  readonly section: string;
  readonly children?: ComponentChildren;
}) {
  const { operator, csrf } = props.ctx;
  return (
    <Layout
      title={props.title}
      area={CONSOLE_AREA_HOME}
      nav={sectionsFor(operator.role)}
      current={props.section}
      who={`${operator.email} · ${operator.role}`}
      signOut={{ action: '/console/sign-out', csrf }}
    >
      {props.children}
    </Layout>
  );
}
