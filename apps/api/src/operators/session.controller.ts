import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { CurrentOperator, Public, RequireRole } from '../auth/decorators.js';
import type { OperatorPrincipal } from '../auth/principal.js';
import { ApiRoute } from '../openapi/route.decorators.js';
import {
  clearedSetCookie,
  CONSOLE_COOKIE,
  readSessionCookie,
  sessionSetCookie,
} from '../common/session-cookie.js';
import { ConfirmEnrolmentDto, EnrolDto, SignInDto, StepUpDto } from './dto/sign-in.dto.js';
import { EnrolmentService } from './enrolment.service.js';
import { SignInService } from './sign-in.service.js';

/** Enrolment, console sign-in and out, and step-up (docs/operators.md#sign-in). */
@ApiTags('Operator: Sign-in and tokens')
@Controller('admin')
export class SessionController {
  constructor(
    private readonly signIn: SignInService,
    private readonly enrolment: EnrolmentService,
  ) {}

  @ApiRoute({
    summary: 'Enrol: set your password, get your TOTP secret',
    description:
      'With the setupToken your account creation (or reset) answered: sets your password (12 to 256 ' +
      'characters) and answers a new TOTP secret and its otpauth:// URI for your authenticator app. Then ' +
      'confirm with a code.',
    data: 'Enrolment',
    errors: [404],
  })
  @Post('enrolment')
  @HttpCode(200)
  @Public()
  enrol(@Body() body: EnrolDto, @Res({ passthrough: true }) reply: FastifyReply) {
    void reply.header('cache-control', 'no-store');
    return this.enrolment.enrol(body.setupToken, body.password);
  }

  @ApiRoute({
    summary: 'Confirm your enrolment with a TOTP code',
    description: 'The first code from your authenticator app; the setupToken is spent and you may sign in.',
    data: 'Operator',
    errors: [404],
  })
  @Post('enrolment/confirm')
  @HttpCode(200)
  @Public()
  confirm(@Body() body: ConfirmEnrolmentDto) {
    return this.enrolment.confirm(body.setupToken, body.code);
  }

  @ApiRoute({
    summary: 'Sign in to the console',
    description:
      'E-mail, password and a TOTP code. Sets the session cookie (HttpOnly, SameSite=Strict, Secure but on ' +
      'localhost) and answers the CSRF token to send as X-CSRF-Token with every request but GET. The code ' +
      'counts as step-up for OPERATOR_STEP_UP_MINUTES. Throttled per account and per address.',
    data: 'OperatorSession',
    errors: [401, 429],
  })
  @Post('session')
  @HttpCode(200)
  @Public()
  async start(
    @Body() body: SignInDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const session = await this.signIn.signIn(body, request.ip);
    void reply
      .header('set-cookie', sessionSetCookie(request, CONSOLE_COOKIE, session.token, session.maxAgeSeconds))
      .header('cache-control', 'no-store');
    return session.view;
  }

  @ApiRoute({
    summary: 'Who you are',
    description: 'Your operator account, and the state of the session or personal token in use.',
    data: 'OperatorSession',
  })
  @Get('session')
  @RequireRole('SUPPORT')
  describe(@CurrentOperator() caller: OperatorPrincipal, @Req() request: FastifyRequest) {
    return this.signIn.describe(caller, readSessionCookie(request, CONSOLE_COOKIE));
  }

  @ApiRoute({
    summary: 'Sign out',
    description: 'Ends the console session and clears its cookie.',
    data: {
      type: 'object',
      required: ['signedOut'],
      properties: { signedOut: { const: true } },
      additionalProperties: false,
    },
  })
  @Delete('session')
  @RequireRole('SUPPORT')
  async end(
    @CurrentOperator() caller: OperatorPrincipal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.signIn.signOut(caller);
    void reply.header('set-cookie', clearedSetCookie(request, CONSOLE_COOKIE));
    return { signedOut: true as const };
  }

  @ApiRoute({
    summary: 'Step up with a TOTP code',
    description:
      'A fresh code from your authenticator: the session or personal token in use may take sensitive ' +
      'actions (issuing credentials, managing operators) for OPERATOR_STEP_UP_MINUTES. Each code is good once.',
    data: {
      type: 'object',
      required: ['stepUpUntil'],
      properties: { stepUpUntil: { type: 'string', format: 'date-time' } },
      additionalProperties: false,
    },
    errors: [429],
  })
  @Post('session/step-up')
  @HttpCode(200)
  @RequireRole('SUPPORT')
  stepUp(
    @CurrentOperator() caller: OperatorPrincipal,
    @Body() body: StepUpDto,
    @Req() request: FastifyRequest,
  ) {
    return this.signIn.stepUp(caller, body.code, request.ip);
  }
}
