// The console's sign-in page: e-mail, password and a code from the authenticator app in one form (the
// errors on the page itself), single sign-on when it is configured, and the page after signing out.
import { Layout } from '../../web/components/layout.js';
import { Notice } from '../../web/components/ui.js';
import { CONSOLE_AREA_HOME } from './console-page.js';

/** The single sign-on start route of the admin api (operators/oidc.controller.ts). */
export const OIDC_START = '/api/v1/admin/sign-in/oidc';

export function SignInPage(props: {
  readonly next: string;
  readonly email?: string;
  readonly errors?: readonly string[];
  readonly sso: boolean;
}) {
  const errors = props.errors ?? [];
  return (
    <Layout title="Sign in" area={CONSOLE_AREA_HOME}>
      {errors.length > 0 && (
        <Notice kind="error">
          {errors.length === 1 ? (
            errors[0]
          ) : (
            <ul>
              {errors.map((error) => (
                <li key={error}>{error}</li>
              ))}
            </ul>
          )}
        </Notice>
      )}
      <section aria-labelledby="password-heading">
        <h2 id="password-heading">With your password</h2>
        <form method="post" action="/console/sign-in" class="stacked">
          <input type="hidden" name="next" value={props.next} />
          <label for="email">
            E-mail
            <input
              id="email"
              type="email"
              name="email"
              autocomplete="username"
              required
              value={props.email ?? ''}
            />
          </label>
          <label for="password">
            Password
            <input id="password" type="password" name="password" autocomplete="current-password" required />
          </label>
          <label for="code">
            Code from your authenticator app
            <input
              id="code"
              type="text"
              name="code"
              inputMode="numeric"
              autocomplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
            />
          </label>
          <button type="submit">Sign in</button>
        </form>
      </section>
      {props.sso && (
        <section aria-labelledby="sso-heading">
          <h2 id="sso-heading">With single sign-on</h2>
          <p>Through your organisation&apos;s identity provider.</p>
          <p>
            <a class="button" href={OIDC_START}>
              Sign in with single sign-on
            </a>
          </p>
        </section>
      )}
    </Layout>
  );
}

export function SignedOutPage() {
  return (
    <Layout title="Signed out" area={CONSOLE_AREA_HOME}>
      <Notice kind="success">You are signed out of the console.</Notice>
      <p>
        <a href="/console/sign-in">Sign in again</a>
      </p>
    </Layout>
  );
}
