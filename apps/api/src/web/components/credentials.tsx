// An organisation's API keys and OAuth clients as the dashboard and the console show them: each with when it
// was issued and last used, whether it is live, and a revoke button where the viewer may revoke. Secrets
// are never shown here: they were shown once, when issued.
import type { ApiKeyView, OAuthClientView } from '../../credentials/credential.view.js';
import { PostForm } from './forms.js';
import { Badge, Table, Time } from './ui.js';

function State(props: { readonly revokedAt: string | null }) {
  return props.revokedAt ? <Badge tone="neutral">Revoked</Badge> : <Badge tone="good">Live</Badge>;
}

function Revoke(props: { readonly csrf: string; readonly action: string; readonly what: string }) {
  return (
    <PostForm
      action={props.action}
      csrf={props.csrf}
      confirm={`Revoke ${props.what}? Requests made with it will fail.`}
      label={`Revoke ${props.what}`}
    >
      <button type="submit" class="button-danger">
        Revoke
      </button>
    </PostForm>
  );
}

export function CredentialTables(props: {
  readonly apiKeys: readonly ApiKeyView[];
  readonly clients: readonly OAuthClientView[];
  /** The page's CSRF token, for the revoke forms. */
  readonly csrf: string;
  /** Where the revoke forms post (`<revokeBase>/api-keys/<id>/revoke`); null: the viewer may not revoke. */
  readonly revokeBase: string | null;
  /** The heading level of the two tables' titles (h2 on a page of its own, h3 in a page's section). */
  readonly heading: 'h2' | 'h3';
}) {
  const { revokeBase, csrf } = props;
  const Heading = props.heading;
  const tail = ['Last used', 'Created', 'State', ...(revokeBase === null ? [] : ['Action'])];
  /** The cells every row ends with, under `tail`: last use, creation, state, and the revoke form. */
  const tailCells = (credential: ApiKeyView | OAuthClientView, path: string, what: string) => (
    <>
      <td>
        <Time iso={credential.lastUsedAt} />
      </td>
      <td>
        <Time iso={credential.createdAt} />
      </td>
      <td>
        <State revokedAt={credential.revokedAt} />
      </td>
      {revokeBase !== null && (
        <td>
          {!credential.revokedAt && (
            <Revoke csrf={csrf} action={`${revokeBase}/${path}/revoke`} what={what} />
          )}
        </td>
      )}
    </>
  );
  return (
    <>
      <Heading>API keys</Heading>
      <Table
        caption="API keys, oldest first"
        head={['Key', 'Label', ...tail]}
        rows={props.apiKeys.length}
        empty="No API key."
      >
        {props.apiKeys.map((key) => (
          <tr key={key.id}>
            <td>
              <code>{key.apiKey}</code>
            </td>
            <td>{key.label}</td>
            {tailCells(key, `api-keys/${key.id}`, `API key ${key.apiKey}`)}
          </tr>
        ))}
      </Table>
      <Heading>OAuth clients</Heading>
      <Table
        caption="OAuth clients, oldest first"
        head={['client_id', 'Label', 'Scopes', ...tail]}
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
            {tailCells(client, `oauth-clients/${client.id}`, `OAuth client ${client.clientId}`)}
          </tr>
        ))}
      </Table>
    </>
  );
}
