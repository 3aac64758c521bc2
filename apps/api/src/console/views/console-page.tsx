// The frame of every console page: the web areas' layout with the sections the operator's role opens,
// who is signed in with which role, and sign-out.
import type { ComponentChildren } from 'preact';

import { Layout } from '../../web/components/layout.js';
import { WEB_AREAS, webAreaHome } from '../../web/web-areas.js';
import type { ConsoleContext } from '../console-context.js';
import { CONSOLE_PATH, sectionsFor } from '../nav.js';

const area = WEB_AREAS.find((candidate) => candidate.path === CONSOLE_PATH);
if (!area) throw new Error('the console is missing from WEB_AREAS');

export const CONSOLE_AREA = area;
export const CONSOLE_AREA_HOME = webAreaHome(area);

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
