// The page a sign-in link opens: what it signs in to, and one button that spends the link (so a link
// checker that fetches the URL does not use it up), and the page after signing out.
import type { OrgEnvironment } from '@svc/db';

import { Layout } from '../../web/components/layout.js';
import { Notice } from '../../web/components/ui.js';
import {
  type DashboardPageName,
  type DashboardPermission,
  PERMISSION_DESCRIPTIONS,
} from '../../auth/dashboard-permissions.js';
import { navFor } from '../nav.js';
import { DASHBOARD_AREA_HOME } from './dashboard-page.js';

export function SignInPage(props: {
  readonly token: string;
  readonly orgName: string;
  readonly environment: OrgEnvironment;
  readonly permissions: readonly DashboardPermission[];
  readonly pages: readonly DashboardPageName[];
  readonly lifetimeSeconds: number;
}) {
  const pages = navFor(props.pages)
    .map((link) => link.label)
    .join(', ');
  const hours = props.lifetimeSeconds / 3600;
  const lasting =
    hours >= 1
      ? `${Math.round(hours * 10) / 10} hour${hours === 1 ? '' : 's'}`
      : `${Math.round(props.lifetimeSeconds / 60)} minutes`;
  return (
    <Layout title="Sign in" area={DASHBOARD_AREA_HOME} sandbox={props.environment === 'SANDBOX'}>
      <section>
        <p>
          This link signs you in to the dashboard of <strong>{props.orgName}</strong> for {lasting}. It works
          once.
        </p>
        <p>The session may see these pages: {pages}.</p>
        {props.permissions.length === 0 ? (
          <p>It can change nothing.</p>
        ) : (
          <>
            <p>Besides reading them, the session may:</p>
            <ul>
              {props.permissions.map((permission) => (
                <li key={permission}>{PERMISSION_DESCRIPTIONS[permission]}</li>
              ))}
            </ul>
          </>
        )}
        <form method="post" action="/dashboard/sign-in">
          <input type="hidden" name="token" value={props.token} />
          <button type="submit">Continue to the dashboard</button>
        </form>
      </section>
    </Layout>
  );
}

export function SignedOutPage() {
  return (
    <Layout title="Signed out" area={DASHBOARD_AREA_HOME}>
      <Notice kind="success">You are signed out of the dashboard.</Notice>
      <p>To come back, ask your organisation&apos;s backend for a new sign-in link.</p>
    </Layout>
  );
}
