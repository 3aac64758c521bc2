// An organisation's API keys and OAuth clients (web/components/credentials.tsx) with a revoke button
// (ADMIN), the forms that issue one (ADMIN, with a fresh code from the authenticator), and the page that
// shows a new secret: the only time it is shown, as on the admin api.
import type { ApiKeyView, OAuthClientView } from '../../credentials/credential.view.js';
import { CredentialTables } from '../../web/components/credentials.js';
import { PostForm } from '../../web/components/forms.js';
import { Facts, Notice } from '../../web/components/ui.js';
import type { ConsoleContext } from '../../operators/console-context.js';
import { ConsolePage } from './console-page.js';
import { mayAct } from './done.js';
import { StepUpField } from './step-up.js';

export function OrgCredentials(props: {
  readonly ctx: ConsoleContext;
  readonly orgId: number;
  readonly apiKeys: readonly ApiKeyView[];
  readonly clients: readonly OAuthClientView[];
}) {
  const { ctx, orgId } = props;
  const admin = mayAct(ctx.operator.role, 'ADMIN');
  const base = `/console/orgs/${orgId}`;
  return (
    <section aria-labelledby="credentials-heading">
      <h2 id="credentials-heading">Credentials</h2>
      {!admin && <p class="muted">Issuing and revoking credentials needs the ADMIN role.</p>}
      <CredentialTables
        apiKeys={props.apiKeys}
        clients={props.clients}
        csrf={ctx.csrf}
        revokeBase={admin ? base : null}
        heading="h3"
      />
      {admin && (
        <>
          <h3>Issue an API key</h3>
          <PostForm action={`${base}/api-keys`} csrf={ctx.csrf} class="stacked" label="Issue an API key">
            <label for="key-label">
              Label
              <span class="hint">Optional: which system uses it</span>
              <input id="key-label" name="label" maxLength={100} autocomplete="off" />
            </label>
            <StepUpField ctx={ctx} id="key-code" />
            <button type="submit">Issue an API key</button>
          </PostForm>
          <h3>Issue an OAuth client</h3>
          <PostForm
            action={`${base}/oauth-clients`}
            csrf={ctx.csrf}
            class="stacked"
            label="Issue an OAuth client"
          >
            <label for="client-scopes">
              Scopes
              <span class="hint">Space-separated MODULE:PERMISSION, e.g. BASE_MODULE:READWRITE</span>
              <input id="client-scopes" name="scopes" required maxLength={1000} autocomplete="off" />
            </label>
            <label for="client-label">
              Label
              <span class="hint">Optional</span>
              <input id="client-label" name="label" maxLength={100} autocomplete="off" />
            </label>
            <StepUpField ctx={ctx} id="client-code" />
            <button type="submit">Issue an OAuth client</button>
          </PostForm>
        </>
      )}
    </section>
  );
}

/** The answer to issuing: the public part and the secret, shown this once. */
export function IssuedPage(props: {
  readonly ctx: ConsoleContext;
  readonly orgId: number;
  readonly what: string;
  readonly facts: readonly (readonly [string, string])[];
  readonly secretLabel: string;
  readonly secret: string;
}) {
  return (
    <ConsolePage ctx={props.ctx} title={`${props.what} issued`} section="/console/orgs">
      <Notice kind="info">
        Copy the secret now: it is shown only on this page, never again (only its hash is stored).
      </Notice>
      <Facts
        items={[
          ...props.facts.map(([label, value]) => [label, <code key={label}>{value}</code>] as const),
          [
            props.secretLabel,
            <code key="secret" class="secret">
              {props.secret}
            </code>,
          ],
        ]}
      />
      <p>
        <a href={`/console/orgs/${props.orgId}`}>Back to the organisation</a>
      </p>
    </ConsolePage>
  );
}
