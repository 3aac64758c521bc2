import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { stringifySetCookie, parseCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Public } from '../auth/decorators.js';
import { CONSOLE_COOKIE, sessionSetCookie } from '../common/session-cookie.js';
import { FLOW_SECONDS, OidcService } from './oidc.service.js';

const FLOW_COOKIE = 'svc_oidc_flow';
const FLOW_PATH = '/api/v1/admin/sign-in/oidc';

const REDIRECT = {
  description: 'See Other: the browser goes on to the Location',
  headers: { Location: { schema: { type: 'string' } } },
};

const envelope = (status: number, description: string) => ({
  status,
  description,
  schema: { $ref: '#/components/schemas/ErrorEnvelope' },
});
const notConfigured = envelope(404, 'Single sign-on is not configured (OIDC_ISSUER)');

/** Single sign-on (docs/operators.md#single-sign-on): browser redirects, not an API a client calls. */
@ApiTags('Operator: Sign-in and tokens')
@Controller('admin/sign-in/oidc')
export class OidcController {
  constructor(private readonly oidc: OidcService) {}

  /** To the provider, with the flow in a cookie that comes back on its redirect (SameSite=Lax). */
  @ApiOperation({
    summary: 'Sign in with single sign-on',
    description:
      'For a browser: redirects to the OpenID provider (authorization code with PKCE), which sends it back ' +
      'to the callback. 404 when single sign-on is not configured.',
  })
  @ApiResponse({ status: 303, ...REDIRECT })
  @ApiResponse(notConfigured)
  @Get()
  @Public()
  async start(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const { location, flowCookie } = await this.oidc.start();
    return reply
      .header('set-cookie', flowSetCookie(request, flowCookie, FLOW_SECONDS))
      .header('cache-control', 'no-store')
      .redirect(location, 303);
  }

  /** The provider's redirect: the session cookie, then on to the console. */
  @ApiOperation({
    summary: 'Single sign-on callback',
    description:
      "The provider's redirect back: checks the answer (state, nonce, PKCE), finds the operator linked to " +
      'the identity (or with its verified e-mail, the first time), sets the session cookie and redirects ' +
      'to the console. 403 when no enabled operator matches.',
  })
  @ApiResponse({ status: 303, ...REDIRECT })
  @ApiResponse({
    status: 403,
    description: 'No enabled operator matches the identity',
    schema: { $ref: '#/components/schemas/ErrorEnvelope' },
  })
  @Get('callback')
  @Public()
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const flow = parseCookie(request.headers.cookie ?? '')[FLOW_COOKIE];
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const { session, next } = await this.oidc.finish(query, flow);
    return reply
      .header('set-cookie', [
        sessionSetCookie(request, CONSOLE_COOKIE, session.token, session.maxAgeSeconds),
        flowSetCookie(request, '', 0),
      ])
      .header('cache-control', 'no-store')
      .redirect(next, 303);
  }
}

function flowSetCookie(request: FastifyRequest, value: string, maxAge: number): string {
  return stringifySetCookie({
    name: FLOW_COOKIE,
    value,
    path: FLOW_PATH,
    httpOnly: true,
    // Lax: the provider's redirect back is a cross-site navigation, which a Strict cookie would miss.
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge,
  });
}
