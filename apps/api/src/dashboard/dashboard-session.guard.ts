// The dashboard pages' guard (docs/dashboard.md): a live session from the cookie (its creator not revoked),
// the page the route shows among the session's pages, and on every write (any method but GET and HEAD) the
// session's CSRF token and the permission the route declares. A route that declares no page, or a write
// route no permission, is refused: neither can be added without saying who may see or send it.
import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';

import { forbidden, formRefused, unauthenticated } from '../common/errors.js';
import { routeMetadata } from '../common/route-metadata.js';
import { OrgsService } from '../orgs/orgs.service.js';
import { CSRF_FIELD, CsrfTokens } from '../web/csrf-tokens.js';
import { readCookie } from '../web/web-session-cookie.js';
import type { DashboardPageName, DashboardPermission } from './dashboard-permissions.js';
import { type DashboardSessionInfo, DashboardSessionsService } from './dashboard-sessions.service.js';

/** The cookie of a dashboard session, sent only to /dashboard. */
export const DASHBOARD_COOKIE = 'svc_dashboard';
export const DASHBOARD_PATH = '/dashboard';

/** What a write needs: a permission, or `'SESSION'` for what any session may do (sign out). */
export const DashboardWrite = Reflector.createDecorator<DashboardPermission | 'SESSION'>();

/**
 * The page a route shows, or belongs to (its forms render it or return to it), usually on the controller:
 * the session must hold it, whatever the method. Only a `'SESSION'` write may declare none.
 */
export const DashboardRead = Reflector.createDecorator<DashboardPageName>();

/** The signed-in session, its organisation's name and the CSRF token for the page's forms. */
export interface DashboardContext {
  readonly session: DashboardSessionInfo;
  readonly orgName: string;
  readonly csrf: string;
}

type DashboardRequest = FastifyRequest & { dashboard?: DashboardContext };

const READS = new Set(['GET', 'HEAD']);

@Injectable()
export class DashboardSessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: DashboardSessionsService,
    private readonly csrf: CsrfTokens,
    private readonly orgs: OrgsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<DashboardRequest>();
    const token = readCookie(request, DASHBOARD_COOKIE);
    const session = token ? await this.sessions.find(token) : null;
    if (!session) throw unauthenticated('you are not signed in to the dashboard');
    let write: DashboardPermission | 'SESSION' | undefined;
    if (!READS.has(request.method)) {
      const body = request.body as Record<string, unknown> | undefined;
      if (!this.csrf.verify(session.id, body?.[CSRF_FIELD])) {
        throw formRefused(
          'the form was not sent from this dashboard (its CSRF token is missing or wrong): reload the page and try again',
        );
      }
      write = routeMetadata(this.reflector, DashboardWrite, context);
      if (write === undefined) throw forbidden('this route does not say who may write to it');
      if (write !== 'SESSION' && !session.permissions.includes(write)) {
        throw forbidden(`this session does not have the ${write} permission`);
      }
    }
    const shows = routeMetadata(this.reflector, DashboardRead, context);
    if (shows === undefined) {
      if (write !== 'SESSION') throw forbidden('this route does not say which page it shows');
    } else if (!session.pages.includes(shows)) {
      throw forbidden(`this session may not see the ${shows} page`);
    }
    const { name } = await this.orgs.get(session.orgId);
    request.dashboard = { session, orgName: name, csrf: this.csrf.create(session.id) };
    return true;
  }
}

/** The handler's DashboardContext (set by the guard). */
export const Dashboard = createParamDecorator(
  (_data: unknown, context: ExecutionContext): DashboardContext => {
    const context_ = context.switchToHttp().getRequest<DashboardRequest>().dashboard;
    if (!context_) throw new Error('DashboardSessionGuard did not run for this route');
    return context_;
  },
);
