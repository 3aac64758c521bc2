// The console pages' guard (docs/console.md): the operator of the session cookie, looked up afresh by
// OperatorAuthService as for the admin api; on every write (any method but GET and HEAD) the page's CSRF
// token (web/csrf-tokens.ts, tied to the session); then the role the route declares with @RequireRole, the
// same decorator the admin api's routes use. A route that declares no role is refused. A route declared
// with `stepUp` takes a fresh TOTP code in its form's `code` field when the session has not shown one
// within OPERATOR_STEP_UP_MINUTES (views/step-up.tsx), so one form both steps up and acts.
import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

import { AUTH_METADATA } from '../auth/decorators.js';
import type { AuthenticatedRequest, OperatorPrincipal } from '../auth/principal.js';
import { AppError, badRequest, forbidden, formRefused, unauthenticated } from '../common/errors.js';
import { routeMetadata } from '../common/route-metadata.js';
import { OperatorAuthService } from '../operators/operator-auth.service.js';
import { readSessionCookie } from '../operators/session-cookie.js';
import { SignInService } from '../operators/sign-in.service.js';
import { CSRF_FIELD, CsrfTokens } from '../web/csrf-tokens.js';

/** The form field that carries a fresh TOTP code to a step-up route. */
export const STEP_UP_FIELD = 'code';

/** The signed-in operator, the CSRF token for the page's forms and whether they are stepped up. */
export interface ConsoleContext {
  readonly operator: OperatorPrincipal;
  readonly csrf: string;
  /** Until when sensitive forms need no code; null when they need one. */
  readonly stepUpUntil: Date | null;
}

type ConsoleRequest = AuthenticatedRequest & { console?: ConsoleContext };

const READS = new Set(['GET', 'HEAD']);

@Injectable()
export class ConsoleGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: OperatorAuthService,
    private readonly signIn: SignInService,
    private readonly csrf: CsrfTokens,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    const token = readSessionCookie(request.headers.cookie);
    if (token === undefined) throw unauthenticated('you are not signed in to the console');
    let operator = await this.auth.fromSession(token);
    const rule = routeMetadata(this.reflector, AUTH_METADATA.operator, context);
    if (!READS.has(request.method)) {
      const body = request.body as Record<string, unknown> | undefined;
      if (!this.csrf.verify(operator.credentialId, body?.[CSRF_FIELD])) {
        throw formRefused(
          'the form was not sent from this console (its CSRF token is missing or wrong): reload the page and try again',
        );
      }
    }
    if (rule === undefined) throw forbidden('this page does not say which role it needs');
    // The role first (its 403 names the role needed), then the step-up, with the form's code if it has one.
    this.auth.authorize(operator, { ...rule, stepUp: false });
    if (rule.stepUp && !this.auth.steppedUp(operator)) {
      operator = await this.stepUp(request, operator);
    }
    request.operator = operator;
    request.console = {
      operator,
      csrf: this.csrf.create(operator.credentialId),
      stepUpUntil: this.stepUpUntil(operator),
    };
    return true;
  }

  /** Steps the session up with the form's code; refuses when there is none or it is wrong. */
  private async stepUp(request: ConsoleRequest, operator: OperatorPrincipal): Promise<OperatorPrincipal> {
    const code = (request.body as Record<string, unknown> | undefined)?.[STEP_UP_FIELD];
    if (READS.has(request.method) || typeof code !== 'string' || code.trim() === '') {
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
    if (!this.auth.steppedUp(operator) || operator.secondFactorAt === null) return null;
    return new Date(operator.secondFactorAt.getTime() + this.auth.stepUpWindowMs());
  }
}

/** The handler's ConsoleContext (set by ConsoleGuard). */
export const OperatorConsole = createParamDecorator(
  (_data: unknown, context: ExecutionContext): ConsoleContext => {
    const value = context.switchToHttp().getRequest<ConsoleRequest>().console;
    if (!value) throw new Error('ConsoleGuard did not run for this route');
    return value;
  },
);
