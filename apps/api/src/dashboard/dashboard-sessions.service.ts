// Sign-in by link (docs/dashboard.md#signing-in): the organisation's backend asks for a single-use link;
// opening it starts a session whose cookie the browser keeps. Links and sessions are stored as SHA-256
// hashes of their tokens, so a copy of the database signs no one in.
import { Inject, Injectable } from '@nestjs/common';
import type { DashboardSession } from '@svc/db';
import { DataSource } from 'typeorm';

import { unauthenticated } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { sha256Hex } from '../credentials/secrets.js';
import { OrgsService } from '../orgs/orgs.service.js';
import { newWebToken } from '../web/web-session-cookie.js';
import {
  type DashboardPermission,
  isDashboardPermission,
  SESSION_LIFETIME_SECONDS,
} from './dashboard-permissions.js';
import { DashboardSessionsRepository } from './dashboard-sessions.repository.js';
import type { CreateDashboardSessionDto } from './dto/create-dashboard-session.dto.js';

/** Where a link lands: the sign-in page, which asks for one click before it spends the link. */
export const SIGN_IN_PATH = '/dashboard/sign-in';

export interface DashboardLinkView {
  readonly url: string;
  readonly expiresAt: string;
  readonly permissions: DashboardPermission[];
  readonly lifetimeSeconds: number;
}

/** A live session as the pages see it. */
export interface DashboardSessionInfo {
  readonly id: string;
  readonly orgId: number;
  readonly permissions: readonly DashboardPermission[];
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
   * A single-use sign-in link for `orgId`, on PUBLIC_URL; without it (never in production) on `origin`,
   * where the request was sent (common/request-origin.ts).
   */
  async createLink(
    orgId: number,
    input: CreateDashboardSessionDto,
    origin: string,
  ): Promise<DashboardLinkView> {
    await this.orgs.find(this.dataSource.manager, orgId);
    const token = newWebToken();
    const permissions = [...(input.permissions ?? [])];
    const lifetimeSeconds = input.lifetimeSeconds ?? SESSION_LIFETIME_SECONDS.default;
    const link = await this.sessions.insertLink({
      orgId,
      tokenHash: sha256Hex(token),
      permissions,
      sessionSeconds: lifetimeSeconds,
      expiresAt: new Date(Date.now() + this.config.dashboardLinkTtlSeconds * 1000),
    });
    const base = this.config.publicUrl ?? origin;
    return {
      url: `${base}${SIGN_IN_PATH}?token=${token}`,
      expiresAt: link.expiresAt.toISOString(),
      permissions,
      lifetimeSeconds,
    };
  }

  /** What opening the link would start, without spending it; 401 when it can no longer be opened. */
  async peek(
    linkToken: string,
  ): Promise<{ orgName: string; permissions: DashboardPermission[]; lifetimeSeconds: number }> {
    const link = linkToken.length <= 100 ? await this.sessions.findUsableLink(sha256Hex(linkToken)) : null;
    if (!link) throw unusableLink();
    const org = await this.orgs.find(this.dataSource.manager, link.orgId);
    return {
      orgName: org.name,
      permissions: link.permissions.filter(isDashboardPermission),
      lifetimeSeconds: link.sessionSeconds,
    };
  }

  /** Spends the link and starts its session; answers the session and the cookie's value. */
  async open(linkToken: string): Promise<{ session: DashboardSessionInfo; token: string }> {
    return this.dataSource.transaction(async (manager) => {
      const link =
        linkToken.length <= 100 ? await this.sessions.claimLink(manager, sha256Hex(linkToken)) : null;
      if (!link) throw unusableLink();
      const token = newWebToken();
      const row = await this.sessions.insertSession(manager, {
        orgId: link.orgId,
        tokenHash: sha256Hex(token),
        permissions: link.permissions,
        expiresAt: new Date(Date.now() + link.sessionSeconds * 1000),
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
  unauthenticated('this sign-in link was already used, has expired or is not one of ours');

function info(row: DashboardSession): DashboardSessionInfo {
  return {
    id: row.id,
    orgId: row.orgId,
    permissions: row.permissions.filter(isDashboardPermission),
    expiresAt: row.expiresAt,
  };
}
