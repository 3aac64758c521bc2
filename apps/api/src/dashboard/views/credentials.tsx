// API keys and OAuth clients: each with when it was last used, and a revoke button for sessions with
// MANAGE_CREDENTIALS. Secrets are never shown: they were shown once, when issued.
import type { ApiKeyView, OAuthClientView } from '../../credentials/credential.view.js';
import { PostForm } from '../../web/components/forms.js';
import { Badge, Notice, Table, Time } from '../../web/components/ui.js';
import type { DashboardContext } from '../dashboard-session.guard.js';
import { DashboardPage } from './dashboard-page.js';

function State(props: { readonly revokedAt: string | null }) {
  return props.revokedAt ? <Badge tone="neutral">Revoked</Badge> : <Badge tone="good">Live</Badge>;
}

export function CredentialsPage(props: {
  readonly ctx: DashboardContext;
  readonly apiKeys: readonly ApiKeyView[];
  readonly clients: readonly OAuthClientView[];
  readonly notice?: string | undefined;
}) {
  const { ctx } = props;
  const canRevoke = ctx.session.permissions.includes('MANAGE_CREDENTIALS');
  const revoke = (action: string, what: string, revokedAt: string | null) =>
    canRevoke && !revokedAt ? (
      <PostForm
        action={action}
        csrf={ctx.csrf}
        confirm={`Revoke ${what}? Requests made with it will fail.`}
        label={`Revoke ${what}`}
      >
        <button type="submit" class="button-danger">
          Revoke
        </button>
      </PostForm>
    ) : null;
  const head = canRevoke ? ['Last used', 'Created', 'State', 'Action'] : ['Last used', 'Created', 'State'];
  return (
    <DashboardPage ctx={ctx} title="API keys and OAuth clients" section="/dashboard/credentials">
      {props.notice && <Notice kind="success">{props.notice}</Notice>}
      {!canRevoke && (
        <p class="muted">This session may not revoke (it needs the MANAGE_CREDENTIALS permission).</p>
      )}
      <h2>API keys</h2>
      <Table
        caption="API keys, oldest first"
        head={['Key', 'Label', ...head]}
        rows={props.apiKeys.length}
        empty="No API key."
      >
        {props.apiKeys.map((key) => (
          <tr key={key.id}>
            <td>
              <code>{key.apiKey}</code>
            </td>
            <td>{key.label}</td>
            <td>
              <Time iso={key.lastUsedAt} />
            </td>
            <td>
              <Time iso={key.createdAt} />
            </td>
            <td>
              <State revokedAt={key.revokedAt} />
            </td>
            {canRevoke && (
              <td>
                {revoke(
                  `/dashboard/credentials/api-keys/${key.id}/revoke`,
                  `API key ${key.apiKey}`,
                  key.revokedAt,
                )}
              </td>
            )}
          </tr>
        ))}
      </Table>
      <h2>OAuth clients</h2>
      <Table
        caption="OAuth clients, oldest first"
        head={['client_id', 'Label', 'Scopes', ...head]}
        rows={props.clients.length}
        empty="No OAuth client."
      >
        {props.clients.map((client) => (
          <tr key={client.id}>
            <td>
              <code>{client.clientId}</code>
            </td>
            <td>{client.label}</td>
            <td class="wrap">{client.scopes.join(' ')}</td>
            <td>
              <Time iso={client.lastUsedAt} />
            </td>
            <td>
              <Time iso={client.createdAt} />
            </td>
            <td>
              <State revokedAt={client.revokedAt} />
            </td>
            {canRevoke && (
              <td>
                {revoke(
                  `/dashboard/credentials/oauth-clients/${client.id}/revoke`,
                  `OAuth client ${client.clientId}`,
                  client.revokedAt,
                )}
              </td>
            )}
          </tr>
        ))}
      </Table>
    </DashboardPage>
  );
}
