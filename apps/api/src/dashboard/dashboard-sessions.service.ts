// Sign-in by link (docs/dashboard.md#signing-in): the organisation's backend asks for a single-use link;
// opening it starts a session whose cookie the browser keeps. Links and sessions are stored as SHA-256
// hashes of their tokens, so a copy of the database signs no one in. A link holds only what the credential
// asking for it may do (docs/dashboard.md#what-a-session-may-do) and records that credential: revoking it
// ends the link and its session.
import { Inject, Injectable } from '@nestjs/common';
import { type DashboardSession, type OrgEnvironment, transaction } from '@svc/db';
import type { Scope } from '@svc/protocol';
import { DataSource } from 'typeorm';

import type { Principal } from '../auth/principal.js';
import { forbidden, unauthenticated } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { sha256Hex } from '../credentials/secrets.js';
import { OrgsService } from '../orgs/orgs.service.js';
import { newWebToken } from '../common/session-cookie.js';
import {
  DASHBOARD_SCOPES,
  type DashboardPageName,
  type DashboardPermission,
  isDashboardPage,
  isDashboardPermission,
  missingScope,
  pagesGrantedBy,
  SESSION_LIFETIME_SECONDS,
} from '../auth/dashboard-permissions.js';
import { DashboardSessionsRepository, type LinkCreator } from './dashboard-sessions.repository.js';
import type { CreateDashboardSessionDto } from './dto/create-dashboard-session.dto.js';

/** Where a link lands: the sign-in page, which asks for one click before it spends the link. */
export const SIGN_IN_PATH = '/dashboard/sign-in';

export interface DashboardLinkView {
  readonly url: string;
  readonly expiresAt: string;
  readonly permissions: DashboardPermission[];
  readonly pages: DashboardPageName[];
  readonly lifetimeSeconds: number;
}

/** A live session as the pages see it. */
export interface DashboardSessionInfo {
  readonly id: string;
  readonly orgId: number;
  readonly permissions: readonly DashboardPermission[];
  readonly pages: readonly DashboardPageName[];
  readonly expiresAt: Date;
}

@Injectable()
export class DashboardSessionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: DashboardSessionsRepository,
    private readonly orgs: OrgsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A single-use sign-in link to the caller's organisation, within the caller's scopes: a permission or a
   * page it names that needs a scope the caller lacks is refused (403 naming the scope); without pages, the
   * session gets every page the caller may see. The link is on PUBLIC_URL; without it (never in production)
   * on `origin`, where the request was sent (common/request-origin.ts).
   */
  async createLink(
    caller: Principal,
    input: CreateDashboardSessionDto,
    origin: string,
  ): Promise<DashboardLinkView> {
    const permissions = [...(input.permissions ?? [])];
    for (const permission of permissions) {
      refuseUnlessHeld(caller, DASHBOARD_SCOPES.permissions[permission], `the ${permission} permission`);
    }
    const pages = input.pages ? [...input.pages] : pagesGrantedBy(caller.scopes);
    for (const page of pages) refuseUnlessHeld(caller, DASHBOARD_SCOPES.pages[page], `the ${page} page`);
    await this.orgs.find(this.dataSource.manager, caller.orgId);
    const token = newWebToken();
    const lifetimeSeconds = input.lifetimeSeconds ?? SESSION_LIFETIME_SECONDS.default;
    const link = await this.sessions.insertLink({
      orgId: caller.orgId,
      tokenHash: sha256Hex(token),
      permissions,
      pages,
      sessionSeconds: lifetimeSeconds,
      expiresAt: new Date(Date.now() + this.config.dashboardLinkTtlSeconds * 1000),
      ...creatorOf(caller),
    });
    const base = this.config.publicUrl ?? origin;
    return {
      url: `${base}${SIGN_IN_PATH}?token=${token}`,
      expiresAt: link.expiresAt.toISOString(),
      permissions,
      pages,
      lifetimeSeconds,
    };
  }

  /** What opening the link would start, without spending it; 401 when it can no longer be opened. */
  async peek(linkToken: string): Promise<{
    orgName: string;
    environment: OrgEnvironment;
    permissions: DashboardPermission[];
    pages: DashboardPageName[];
    lifetimeSeconds: number;
  }> {
    const link = linkToken.length <= 100 ? await this.sessions.findUsableLink(sha256Hex(linkToken)) : null;
    if (!link) throw unusableLink();
    const org = await this.orgs.find(this.dataSource.manager, link.orgId);
    return {
      orgName: org.name,
      environment: org.environment,
      permissions: link.permissions.filter(isDashboardPermission),
      pages: link.pages.filter(isDashboardPage),
      lifetimeSeconds: link.sessionSeconds,
    };
  }

  /** Spends the link and starts its session; answers the session and the cookie's value. */
  async open(linkToken: string): Promise<{ session: DashboardSessionInfo; token: string }> {
    return transaction(this.dataSource, async (manager) => {
      const link =
        linkToken.length <= 100 ? await this.sessions.claimLink(manager, sha256Hex(linkToken)) : null;
      if (!link) throw unusableLink();
      const token = newWebToken();
      const row = await this.sessions.insertSession(manager, {
        orgId: link.orgId,
        tokenHash: sha256Hex(token),
        permissions: link.permissions,
        pages: link.pages,
        expiresAt: new Date(Date.now() + link.sessionSeconds * 1000),
        apiKeyId: link.apiKeyId,
        oauthClientId: link.oauthClientId,
      });
      return { session: info(row), token };
    });
  }

  /** The live session of a cookie's value, or null. */
  async find(token: string): Promise<DashboardSessionInfo | null> {
    if (token.length === 0 || token.length > 100) return null;
    const row = await this.sessions.findLiveSession(sha256Hex(token));
    return row && info(row);
  }

  signOut(sessionId: string): Promise<void> {
    return this.sessions.endSession(sessionId);
  }

  /** Ends every session of the organisation and voids its unused links. */
  endAll(orgId: number): Promise<{ sessionsEnded: number; linksRevoked: number }> {
    return this.sessions.endAll(orgId);
  }
}

const unusableLink = () =>
  unauthenticated(
    'this sign-in link was already used, has expired, was asked for with credentials since revoked, or is not one of ours',
  );

/** 403 naming the first scope of `needed` that the caller lacks (an API key holds every scope). */
function refuseUnlessHeld(caller: Principal, needed: readonly Scope[], what: string): void {
  const missing = missingScope(caller.scopes, needed);
  if (missing) {
    throw forbidden(`${what} needs the scope ${missing}, which these credentials do not hold`);
  }
}

/** The API key, or the OAuth client of the bearer token, that asks for a link. */
function creatorOf(caller: Principal): LinkCreator {
  return caller.method === 'hmac'
    ? { apiKeyId: caller.credentialId, oauthClientId: null }
    : { apiKeyId: null, oauthClientId: caller.clientId };
}

function info(row: DashboardSession): DashboardSessionInfo {
  return {
    id: row.id,
    orgId: row.orgId,
    permissions: row.permissions.filter(isDashboardPermission),
    pages: row.pages.filter(isDashboardPage),
    expiresAt: row.expiresAt,
  };
}
