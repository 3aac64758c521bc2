// The frame of every dashboard page: the web areas' layout with the dashboard's sections, the
// organisation (and the sandbox marker for a sandbox one), what the session may do, and sign-out.
import type { ComponentChildren } from 'preact';

import { Layout } from '../../web/components/layout.js';
import { webAreaHome } from '../../web/web-areas.js';
import { DASHBOARD_AREA } from '../dashboard-area.js';
import type { DashboardPageName } from '../../auth/dashboard-permissions.js';
import type { DashboardContext } from '../dashboard-context.js';
import { navFor } from '../nav.js';

export const DASHBOARD_AREA_HOME = webAreaHome(DASHBOARD_AREA);

export function DashboardPage(props: {
  readonly ctx: DashboardContext;
  readonly title: string;
  /** The nav link this page is under. */
  readonly section: string;
  readonly children?: ComponentChildren;
}) {
  const { session, orgName, environment, csrf } = props.ctx;
  const access =
    session.permissions.length === 0
      ? 'read only'
      : session.permissions.join(', ').toLowerCase().replace(/_/g, ' ');
  return (
    <Layout
      title={props.title}
      area={DASHBOARD_AREA_HOME}
      sandbox={environment === 'SANDBOX'}
      nav={navFor(session.pages)}
      current={props.section}
      who={`${orgName} (organisation ${session.orgId}) · ${access}`}
      signOut={{ action: '/dashboard/sign-out', csrf }}
    >
      {props.children}
    </Layout>
  );
}

/** A link to another page of the dashboard, or its text alone when the session may not see that page. */
export function PageLink(props: {
  readonly ctx: DashboardContext;
  readonly page: DashboardPageName;
  readonly href: string;
  readonly children?: ComponentChildren;
}) {
  return props.ctx.session.pages.includes(props.page) ? (
    <a href={props.href}>{props.children}</a>
  ) : (
    <>{props.children}</>
  );
}
