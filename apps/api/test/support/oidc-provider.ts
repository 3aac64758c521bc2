// Test support: a real OpenID provider (oidc-provider) on loopback whose login step answers at once for
// the person the test names; for the single sign-on tests (operator-oidc.e2e.spec.ts over HTTP,
// console.browser.spec.ts in a browser).
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OidcPerson {
  email: string;
  emailVerified: boolean;
}

export const TEST_CLIENT = { id: 'svc-console', secret: 'a-client-secret-for-the-test-provider' } as const;

/** A free port on 127.0.0.1 (the api's, which the client's redirect URI must name before it starts). */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  return port;
}

/**
 * Starts the provider for one client redirecting to `redirectUri`; its issuer names the host `issuerHost`
 * (`localhost` makes it another site than an api on 127.0.0.1, as a real provider is). `person()` says
 * who signs in.
 */
export async function startOidcProvider(
  redirectUri: string,
  person: () => OidcPerson,
  issuerHost = '127.0.0.1',
): Promise<{ issuer: string; close: () => void }> {
  const { default: Provider } = await import('oidc-provider');
  const idp: Server = createServer();
  idp.listen(0, '127.0.0.1');
  await once(idp, 'listening');
  const issuer = `http://${issuerHost}:${(idp.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    findAccount: (_context, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: person().email, email_verified: person().emailVerified }),
    }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
  });
  // The provider's login page, answered at once for `person` (a person typing their password there).
  idp.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return void provider.callback()(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const accountId = `idp-${person().email}`;
      const grant = new provider.Grant({ accountId, clientId: details.params.client_id as string });
      grant.addOIDCScope('openid email profile');
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId }, consent: { grantId: await grant.save() } },
        { mergeWithLastSubmission: false },
      );
    })();
  });
  return { issuer, close: () => idp.close() };
}
