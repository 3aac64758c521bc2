// Who is calling, for every route, in one place (docs/decisions.md, "Authentication: one way in"): the one
// global guard (route-auth.guard.ts) hands each request here with its route's rule (route-rule.ts), and this
// lets the caller in or throws the 401/403 that refuses them.
//
// - An organisation's credentials: the bearer and API key passport strategies (either method on every
//   organisation route: docs/decisions.md, "Authentication: either method on every organisation route"),
//   the signature's first when the request carries no bearer token; a bearer token must hold the route's
//   scope.
// - An operator on the admin api: a personal token or the console session (with its CSRF token in
//   X-CSRF-Token), looked up afresh by OperatorAuthService; then the role and step-up the route names.
// - An operator on a console page: the console session, the form's CSRF token on every write, the role,
//   and a fresh TOTP code in the form's `code` field when the route needs a step-up the session has not shown
//   within OPERATOR_STEP_UP_MINUTES (views/step-up.tsx), so one form both steps up and acts.
// - A dashboard session (docs/dashboard.md): live (its creator not revoked), holding the page the route
//   shows, and on every write the form's CSRF token and the permission the route names.
import { Injectable } from '@nestjs/common';
import { grantsScope } from '@svc/protocol';
import passport from 'passport';

import {
  AppError,
  badRequest,
  forbidden,
  formRefused,
  InsufficientScopeError,
  unauthenticated,
} from '../common/errors.js';
import { type ConsoleRequest, STEP_UP_FIELD } from '../operators/console-context.js';
import type { DashboardRequest } from '../dashboard/dashboard-context.js';
import { DashboardSessionsService } from '../dashboard/dashboard-sessions.service.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { OperatorAuthService } from '../operators/operator-auth.service.js';
import { SignInService } from '../operators/sign-in.service.js';
import { OrgsService } from '../orgs/orgs.service.js';
import { CsrfTokens, isSafeMethod } from '../common/csrf-tokens.js';
import { CONSOLE_COOKIE, DASHBOARD_COOKIE, readSessionCookie } from '../common/session-cookie.js';
import { BEARER_STRATEGY } from './bearer.strategy.js';
import type { OperatorRule } from './decorators.js';
import { HMAC_STRATEGY } from './hmac.strategy.js';
import type { AuthenticatedRequest, OperatorPrincipal, Principal } from './principal.js';
import type { RouteRule } from './route-rule.js';

/** The passport strategies in the order tried: the bearer one first only when a bearer token came. */
const BEARER_FIRST = [BEARER_STRATEGY, HMAC_STRATEGY];
const SIGNATURE_FIRST = [HMAC_STRATEGY, BEARER_STRATEGY];

type Request = AuthenticatedRequest & ConsoleRequest & DashboardRequest;

@Injectable()
export class AuthenticationService {
  constructor(
    private readonly operators: OperatorAuthService,
    private readonly signIn: SignInService,
    private readonly dashboardSessions: DashboardSessionsService,
    private readonly orgs: OrgsService,
    private readonly csrf: CsrfTokens,
    private readonly metrics: MetricsService,
  ) {}

  /** Lets the caller of a route declaring `rule` in (setting who they are on the request), or throws. */
  async authenticate(request: Request, rule: RouteRule): Promise<void> {
    switch (rule.kind) {
      case 'public':
        return;
      case 'organisation':
        return this.organisation(request, rule);
      case 'operator':
        return this.operator(request, rule.operator);
      case 'console':
        return this.consolePage(request, rule.operator);
      case 'dashboard':
        return this.dashboardPage(request, rule);
      case 'undeclared':
        throw forbidden('this page does not say who may open it');
    }
  }

  private async organisation(
    request: Request,
    rule: Extract<RouteRule, { kind: 'organisation' }>,
  ): Promise<void> {
    // The cheap header check picks the order (docs/decisions.md, "Request path: the signature strategy
    // first"): without a bearer token the bearer strategy would decline at once, so the answer is alike.
    const user = await this.passport(request, carriesNoBearerToken(request) ? SIGNATURE_FIRST : BEARER_FIRST);
    request.user = user;
    if (rule.scope && user.method === 'bearer' && !grantsScope(user.scopes, rule.scope)) {
      this.metrics.authFailed('insufficient_scope');
      throw new InsufficientScopeError(rule.scope);
    }
  }

  /** What @nestjs/passport's AuthGuard does, with the strategies in the order this request calls for. */
  private passport(request: Request, strategies: string[]): Promise<Principal> {
    return new Promise((resolve, reject) => {
      const done = (error: unknown, user: Principal | false | undefined): void => {
        if (error) {
          // As the strategy threw it (a database error too, which the exception filter answers as a 503).
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passport types it any
          reject(error);
        } else if (user) {
          resolve(user);
        } else {
          // Both strategies declined without an error: no credentials at all.
          this.metrics.authFailed('missing_credentials');
          reject(
            unauthenticated('send X-API-KEY, X-TIMESTAMP and X-SIGNATURE, or Authorization: Bearer <token>', {
              'www-authenticate': 'Bearer',
            }),
          );
        }
      };
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- @types/passport says `any`
      const middleware: (request: unknown, response: unknown, next: (error?: unknown) => void) => void =
        passport.authenticate(strategies, { session: false }, done);
      middleware(request, undefined, (error) => {
        reject(error instanceof Error ? error : new Error('passport went on without an answer'));
      });
    });
  }

  private async operator(request: Request, rule: OperatorRule): Promise<void> {
    try {
      const header = request.headers.authorization;
      if (header !== undefined) {
        request.operator = await this.operators.fromAuthorization(header, rule);
        return;
      }
      const session = readSessionCookie(request, CONSOLE_COOKIE);
      if (session === undefined) {
        throw unauthenticated(
          'the operator routes need a personal token (Authorization: Bearer op_…) or a console session ' +
            '(sign in with POST /api/v1/admin/session)',
          { 'www-authenticate': 'Bearer' },
        );
      }
      const operator = await this.operators.fromSession(session);
      if (!this.csrf.holds(request, operator.credentialId)) {
        throw forbidden("a request with the session cookie must send the session's X-CSRF-Token");
      }
      this.operators.authorize(operator, rule);
      request.operator = operator;
    } catch (error) {
      this.metrics.authFailed(
        error instanceof AppError && error.status === 403 ? 'operator_forbidden' : 'operator_refused',
      );
      throw error;
    }
  }

  private async consolePage(request: Request, rule: OperatorRule): Promise<void> {
    const token = readSessionCookie(request, CONSOLE_COOKIE);
    if (token === undefined) throw unauthenticated('you are not signed in to the console');
    let operator = await this.operators.fromSession(token);
    if (!this.csrf.holds(request, operator.credentialId)) {
      throw formRefused(
        'the form was not sent from this console (its CSRF token is missing or wrong): reload the page and try again',
      );
    }
    // The role first (its 403 names the role needed), then the step-up, with the form's code if it has one.
    this.operators.authorize(operator, { ...rule, stepUp: false });
    if (rule.stepUp && !this.operators.steppedUp(operator)) operator = await this.stepUp(request, operator);
    request.operator = operator;
    request.console = {
      operator,
      csrf: this.csrf.create(operator.credentialId),
      stepUpUntil: this.stepUpUntil(operator),
    };
  }

  /** Steps a console session up with the form's code; refuses when there is none or it is wrong. */
  private async stepUp(request: Request, operator: OperatorPrincipal): Promise<OperatorPrincipal> {
    const code = (request.body as Record<string, unknown> | undefined)?.[STEP_UP_FIELD];
    if (isSafeMethod(request) || typeof code !== 'string' || code.trim() === '') {
      throw forbidden(
        'step_up_required: this action needs a fresh code from your authenticator app: enter it in the ' +
          "form's code field and send the form again",
      );
    }
    try {
      await this.signIn.stepUp(operator, code.trim(), request.ip);
    } catch (error) {
      if (error instanceof AppError && error.status === 401) {
        throw badRequest('code: the code is wrong or was already used: wait for the next one');
      }
      throw error;
    }
    return { ...operator, secondFactorAt: new Date() };
  }

  private stepUpUntil(operator: OperatorPrincipal): Date | null {
    if (!this.operators.steppedUp(operator) || operator.secondFactorAt === null) return null;
    return new Date(operator.secondFactorAt.getTime() + this.operators.stepUpWindowMs());
  }

  private async dashboardPage(
    request: Request,
    rule: Extract<RouteRule, { kind: 'dashboard' }>,
  ): Promise<void> {
    const token = readSessionCookie(request, DASHBOARD_COOKIE);
    const session = token ? await this.dashboardSessions.find(token) : null;
    if (!session) throw unauthenticated('you are not signed in to the dashboard');
    if (!isSafeMethod(request)) {
      if (!this.csrf.holds(request, session.id)) {
        throw formRefused(
          'the form was not sent from this dashboard (its CSRF token is missing or wrong): reload the page and try again',
        );
      }
      if (rule.write === undefined) throw forbidden('this route does not say who may write to it');
      if (rule.write !== 'SESSION' && !session.permissions.includes(rule.write)) {
        throw forbidden(`this session does not have the ${rule.write} permission`);
      }
    }
    if (rule.page === undefined) {
      if (isSafeMethod(request) || rule.write !== 'SESSION') {
        throw forbidden('this route does not say which page it shows');
      }
    } else if (!session.pages.includes(rule.page)) {
      throw forbidden(`this session may not see the ${rule.page} page`);
    }
    const { name, environment } = await this.orgs.get(session.orgId);
    request.dashboard = { session, orgName: name, environment, csrf: this.csrf.create(session.id) };
  }
}

/**
 * Whether passport-http-bearer would decline the request at once (no Authorization header, no
 * access_token in the body or the query, as it looks for them): it then fails without an error whatever
 * the order, so trying the signature strategy first answers alike and spares the bearer attempt on every
 * signed request.
 */
function carriesNoBearerToken(request: Request): boolean {
  const body = request.body as { access_token?: unknown } | null | undefined;
  const query = request.query as { access_token?: unknown } | null | undefined;
  return !request.headers.authorization && !body?.access_token && !query?.access_token;
}
