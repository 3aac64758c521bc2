// The dashboard pages' guard (docs/dashboard.md): a live session from the cookie, and on every write (any
// method but GET and HEAD) the session's CSRF token and the permission the route declares. A write route
// that declares none is refused: a form cannot be added without saying who may send it.
import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';

import { forbidden, formRefused, unauthenticated } from '../common/errors.js';
import { routeMetadata } from '../common/route-metadata.js';
import { OrgsService } from '../orgs/orgs.service.js';
import { CSRF_FIELD, CsrfTokens } from '../web/csrf-tokens.js';
import { readCookie } from '../web/web-session-cookie.js';
import type { DashboardPermission } from './dashboard-permissions.js';
import { type DashboardSessionInfo, DashboardSessionsService } from './dashboard-sessions.service.js';

/** The cookie of a dashboard session, sent only to /dashboard. */
export const DASHBOARD_COOKIE = 'svc_dashboard';
export const DASHBOARD_PATH = '/dashboard';

/** What a write needs: a permission, or `'SESSION'` for what any session may do (sign out). */
export const DashboardWrite = Reflector.createDecorator<DashboardPermission | 'SESSION'>();

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
    if (!READS.has(request.method)) {
      const body = request.body as Record<string, unknown> | undefined;
      if (!this.csrf.verify(session.id, body?.[CSRF_FIELD])) {
        throw formRefused(
          'the form was not sent from this dashboard (its CSRF token is missing or wrong): reload the page and try again',
        );
      }
      const needed = routeMetadata(this.reflector, DashboardWrite, context);
      if (needed === undefined) throw forbidden('this route does not say who may write to it');
      if (needed !== 'SESSION' && !session.permissions.includes(needed)) {
        throw forbidden(`this session does not have the ${needed} permission`);
      }
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
