// Single sign-on through OpenID Connect (docs/operators.md#single-sign-on): the authorization code flow
// with PKCE, state and nonce through openid-client. What the flow must remember between the redirect and
// the callback travels in a short-lived cookie sealed under the master key, so any instance may take the
// callback. The provider vouches for the person; an operator is found by the identity linked at their
// first sign-in (issuer and subject), or by a verified e-mail the first time.
import { Inject, Injectable } from '@nestjs/common';
import type { Operator } from '@svc/db';
import * as oidc from 'openid-client';

import { badRequest, forbidden, notFound, unauthenticated } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { decryptSecret, encryptSecret } from '../credentials/secrets.js';
import { OperatorsRepository } from './operators.repository.js';
import { type NewSession, SignInService } from './sign-in.service.js';

/** How long a browser may take at the provider. */
export const FLOW_SECONDS = 600;

interface Flow {
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
  readonly until: number;
}

@Injectable()
export class OidcService {
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(
    private readonly repository: OperatorsRepository,
    private readonly signIn: SignInService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get settings() {
    const settings = this.config.operators.oidc;
    if (!settings) throw notFound('single sign-on is not configured (OIDC_ISSUER)');
    return settings;
  }

  /** The provider's metadata, discovered once (a failed discovery is tried again next time). */
  private provider(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    this.configuration ??= oidc
      .discovery(
        new URL(issuer),
        clientId,
        clientSecret ?? undefined,
        clientSecret ? oidc.ClientSecretPost(clientSecret) : oidc.None(),
        // Plain HTTP only for a provider on this machine (development and tests), which is what the
        // library marks this option for.
        // eslint-disable-next-line @typescript-eslint/no-deprecated
        isLoopback(issuer) ? { execute: [oidc.allowInsecureRequests] } : {},
      )
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw error;
      });
    return this.configuration;
  }

  /** Where to send the browser, and the sealed flow for its cookie. */
  async start(): Promise<{ location: string; flowCookie: string }> {
    const provider = await this.provider();
    const flow: Flow = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      until: Date.now() + FLOW_SECONDS * 1000,
    };
    const location = oidc.buildAuthorizationUrl(provider, {
      redirect_uri: this.settings.redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return {
      location: location.href,
      flowCookie: encryptSecret(this.config.masterKey, JSON.stringify(flow)),
    };
  }

  /**
   * The provider's answer (`query`: the callback's query string): checks it, finds (or links) the operator
   * and starts their session.
   */
  async finish(
    query: string,
    flowCookie: string | undefined,
  ): Promise<{ session: NewSession; next: string }> {
    const flow = this.openFlow(flowCookie);
    const provider = await this.provider();
    // The callback as OIDC_REDIRECT_URI names it, whatever host and scheme the request reached us by: the
    // library sends it to the provider as the redirect_uri, which must be the one the flow started with.
    const callbackUrl = new URL(this.settings.redirectUri);
    callbackUrl.search = query;
    let claims: oidc.IDToken | undefined;
    let email: { email?: unknown; email_verified?: unknown };
    try {
      const tokens = await oidc.authorizationCodeGrant(provider, callbackUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
      // A conforming provider may keep the e-mail out of the ID token: then it is at the userinfo endpoint.
      const source: Record<string, unknown> | undefined =
        claims && claims.email === undefined
          ? await oidc.fetchUserInfo(provider, tokens.access_token, claims.sub)
          : claims;
      email = { email: source?.email, email_verified: source?.email_verified };
    } catch (error) {
      throw unauthenticated(`single sign-on failed: ${(error as Error).message}`);
    }
    if (!claims) throw unauthenticated('single sign-on failed: no ID token');
    const operator = await this.operatorFor(claims, email);
    // Not stepped up: sensitive actions ask for a TOTP code of ours (docs/operators.md#step-up).
    const session = await this.signIn.startSession(operator, 'oidc', {
      issuer: claims.iss,
      subject: claims.sub,
    });
    return { session, next: this.settings.afterSignIn };
  }

  private openFlow(cookie: string | undefined): Flow {
    let flow: Flow | undefined;
    try {
      flow = cookie ? (JSON.parse(decryptSecret(this.config.masterKey, cookie)) as Flow) : undefined;
    } catch {
      flow = undefined;
    }
    if (!flow || flow.until < Date.now()) {
      throw badRequest(
        'the sign-in flow is unknown or expired: start again at GET /api/v1/admin/sign-in/oidc',
      );
    }
    return flow;
  }

  /** The operator linked to (iss, sub); else the one with this verified e-mail, linked now. */
  private async operatorFor(
    claims: oidc.IDToken,
    { email: address, email_verified: verified }: { email?: unknown; email_verified?: unknown },
  ): Promise<Operator> {
    const linked = await this.repository.findOperatorByOidc(claims.iss, claims.sub);
    const operator =
      linked ??
      (await this.repository.transaction(async (manager) => {
        const email = typeof address === 'string' ? address.toLowerCase() : undefined;
        if (!email || verified !== true) return null;
        const found = await this.repository.findOperatorByEmail(manager, email, true);
        if (!found || found.oidcSubject !== null) return null;
        found.oidcIssuer = claims.iss;
        found.oidcSubject = claims.sub;
        return this.repository.saveOperator(manager, found);
      }));
    if (!operator) throw forbidden('no operator account matches this single sign-on identity: ask an ADMIN');
    if (operator.disabledAt) throw forbidden('your operator account is disabled');
    return operator;
  }
}

function isLoopback(url: string): boolean {
  const { hostname } = new URL(url);
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}
