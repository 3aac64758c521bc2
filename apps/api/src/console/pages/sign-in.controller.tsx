// Signing in and out of the console (docs/console.md#signing-in): the form of e-mail, password and code
// through the admin api's SignInService (same checks, throttling and audit), whose refusals are shown on
// the page; the session cookie is the admin api's (common/session-cookie.ts). Sign-out needs a session.
import { Body, Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { CurrentOperator, Public, RequireRole } from '../../auth/decorators.js';
import type { OperatorPrincipal } from '../../auth/principal.js';
import { AppError, formRefused } from '../../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { SignInDto } from '../../operators/dto/sign-in.dto.js';
import { SignInService } from '../../operators/sign-in.service.js';
import { isSameOrigin } from '../../web/same-origin.js';
import { clearedSetCookie, CONSOLE_COOKIE, sessionSetCookie } from '../../common/session-cookie.js';
import { returnPath } from '../../web/signed-out-answer.js';
import { page, redirectTo } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { CONSOLE_AREA } from '../views/console-page.js';
import { SignedOutPage, SignInPage } from '../views/sign-in.js';

/** How a refusal of the api's sign-in reads on the page. */
function refusal(error: AppError): string {
  if (error.status === 429) {
    const seconds = error.headers['retry-after'];
    return `Too many sign-in attempts: try again in ${seconds ?? 'a few'} seconds.`;
  }
  return 'The e-mail, password or code is wrong.';
}

@WebPages()
@Controller('console')
export class ConsoleSignInController {
  constructor(
    private readonly signIn: SignInService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('sign-in')
  @Public()
  show(@Query('next') next: unknown) {
    return page(<SignInPage next={returnPath(CONSOLE_AREA, next)} sso={this.ssoConfigured()} />);
  }

  @Post('sign-in')
  @Public()
  async submit(
    @Body() body: Record<string, unknown> | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    // No session yet, so no CSRF token: the form must come from our own page (login CSRF).
    if (!isSameOrigin(request, this.config.publicUrl)) {
      throw formRefused(
        'the sign-in was not sent from the console’s sign-in page (its Origin is another site or missing): ' +
          'open /console/sign-in and sign in there',
      );
    }
    const next = returnPath(CONSOLE_AREA, body?.next);
    const input = plainToInstance(SignInDto, {
      email: body?.email,
      password: body?.password,
      code: typeof body?.code === 'string' ? body.code.trim() : body?.code,
    });
    const signInPageWith = (status: number, errors: string[]) =>
      page(
        <SignInPage
          next={next}
          sso={this.ssoConfigured()}
          email={typeof body?.email === 'string' ? body.email.slice(0, 254) : ''}
          errors={errors}
        />,
        status,
      );
    const invalid = await validate(input);
    if (invalid.length > 0) {
      return signInPageWith(
        400,
        invalid.flatMap((error) => Object.values(error.constraints ?? {}).slice(0, 1)),
      );
    }
    try {
      const session = await this.signIn.signIn(input, request.ip);
      void reply.header(
        'set-cookie',
        sessionSetCookie(request, CONSOLE_COOKIE, session.token, session.maxAgeSeconds),
      );
      return redirectTo(next);
    } catch (error) {
      if (!(error instanceof AppError) || (error.status !== 401 && error.status !== 429)) throw error;
      for (const [name, value] of Object.entries(error.headers)) {
        if (name === 'retry-after') void reply.header(name, value);
      }
      return signInPageWith(error.status, [refusal(error)]);
    }
  }

  @Get('signed-out')
  @Public()
  signedOut() {
    return page(<SignedOutPage />);
  }

  @Post('sign-out')
  @RequireRole('SUPPORT')
  async signOut(
    @CurrentOperator() operator: OperatorPrincipal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.signIn.signOut(operator);
    void reply.header('set-cookie', clearedSetCookie(request, CONSOLE_COOKIE));
    return redirectTo('/console/signed-out');
  }

  /** Whether single sign-on is configured (a method: web-areas.ts reads the prototype's members). */
  private ssoConfigured(): boolean {
    return this.config.operators.oidc !== null;
  }
}
