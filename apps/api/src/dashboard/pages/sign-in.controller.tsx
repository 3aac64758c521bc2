// Signing in and out (docs/dashboard.md#signing-in): the link's page, the button that spends it and sets
// the session cookie, and sign-out. The sign-in pages need no session; sign-out does.
import { Body, Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { DashboardWrite, Public } from '../../auth/decorators.js';
import { badRequest, formRefused } from '../../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { isSameOrigin } from '../../web/same-origin.js';
import { page, redirectTo } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { clearedSetCookie, DASHBOARD_COOKIE, sessionSetCookie } from '../../common/session-cookie.js';
import { Dashboard, type DashboardContext } from '../dashboard-context.js';
import { DashboardSessionsService } from '../dashboard-sessions.service.js';
import { landingPath } from '../nav.js';
import { SignedOutPage, SignInPage } from '../views/sign-in.js';

const tokenOf = (value: unknown): string => {
  if (typeof value !== 'string' || value.length === 0)
    throw badRequest('token: the sign-in link has no token');
  return value;
};

@WebPages()
@Controller('dashboard')
export class SignInController {
  constructor(
    private readonly sessions: DashboardSessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('sign-in')
  @Public()
  async show(@Query('token') token: unknown) {
    const link = await this.sessions.peek(tokenOf(token));
    return page(<SignInPage token={tokenOf(token)} {...link} />);
  }

  @Post('sign-in')
  @Public()
  async signIn(
    @Body() body: Record<string, unknown> | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    if (!isSameOrigin(request, this.config.publicUrl)) {
      throw formRefused(
        'the sign-in was not sent from the page the link opens (its Origin is another site or missing): ' +
          'open the link again and sign in there',
      );
    }
    const { session, token } = await this.sessions.open(tokenOf(body?.token));
    void reply.header(
      'set-cookie',
      sessionSetCookie(request, DASHBOARD_COOKIE, token, (session.expiresAt.getTime() - Date.now()) / 1000),
    );
    return redirectTo(landingPath(session.pages));
  }

  @Get('signed-out')
  @Public()
  signedOut() {
    return page(<SignedOutPage />);
  }

  @Post('sign-out')
  @DashboardWrite('SESSION')
  async signOut(
    @Dashboard() ctx: DashboardContext,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.sessions.signOut(ctx.session.id);
    void reply.header('set-cookie', clearedSetCookie(request, DASHBOARD_COOKIE));
    return redirectTo('/dashboard/signed-out');
  }
}
