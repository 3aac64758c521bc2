// API keys and OAuth clients (web/components/credentials.tsx), with a revoke button for sessions with
// MANAGE_CREDENTIALS.
import type { ApiKeyView, OAuthClientView } from '../../credentials/credential.view.js';
import { CredentialTables } from '../../web/components/credentials.js';
import { Notice } from '../../web/components/ui.js';
import type { DashboardContext } from '../dashboard-context.js';
import { DashboardPage } from './dashboard-page.js';

export function CredentialsPage(props: {
  readonly ctx: DashboardContext;
  readonly apiKeys: readonly ApiKeyView[];
  readonly clients: readonly OAuthClientView[];
  readonly notice?: string | undefined;
}) {
  const { ctx } = props;
  const canRevoke = ctx.session.permissions.includes('MANAGE_CREDENTIALS');
  return (
    <DashboardPage ctx={ctx} title="API keys and OAuth clients" section="/dashboard/credentials">
      {props.notice && <Notice kind="success">{props.notice}</Notice>}
      {!canRevoke && (
        <p class="muted">This session may not revoke (it needs the MANAGE_CREDENTIALS permission).</p>
      )}
      <CredentialTables
        apiKeys={props.apiKeys}
        clients={props.clients}
        csrf={ctx.csrf}
        revokeBase={canRevoke ? '/dashboard/credentials' : null}
        heading="h2"
      />
    </DashboardPage>
  );
}
