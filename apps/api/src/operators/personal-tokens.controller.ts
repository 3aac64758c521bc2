import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { CurrentOperator, RequireRole } from '../auth/decorators.js';
import type { OperatorPrincipal } from '../auth/principal.js';
import { UuidPipe } from '../common/params.js';
import { ApiRoute } from '../openapi/route.decorators.js';
import { IssuePersonalTokenDto } from './dto/personal-token.dto.js';
import { PersonalTokensService } from './personal-tokens.service.js';

/** The caller's personal API tokens (docs/operators.md#personal-tokens). */
@ApiTags('Operator: Sign-in and tokens')
@Controller('admin/tokens')
export class PersonalTokensController {
  constructor(private readonly tokens: PersonalTokensService) {}

  @ApiRoute({
    summary: 'Issue a personal token',
    description:
      'A token for the CLI or automation, acting as you with your role. The answer holds it: the only time ' +
      'it is shown. Expires after expiresInDays (default 30). Audited.',
    data: 'IssuedOperatorToken',
  })
  @Post()
  @HttpCode(200)
  @RequireRole('SUPPORT', { stepUp: true })
  issue(@CurrentOperator() caller: OperatorPrincipal, @Body() body: IssuePersonalTokenDto) {
    return this.tokens.issue(caller, body);
  }

  @ApiRoute({
    summary: 'List your personal tokens',
    description: 'Your tokens, newest first, revoked and expired ones too; never their values.',
    data: 'OperatorTokenList',
  })
  @Get()
  @RequireRole('SUPPORT')
  list(@CurrentOperator() caller: OperatorPrincipal) {
    return this.tokens.list(caller);
  }

  @ApiRoute({
    summary: 'Revoke a personal token',
    description:
      "Revokes one of your tokens (an ADMIN: anyone's); requests with it fail from then on. Audited.",
    data: 'OperatorToken',
    errors: [404],
  })
  @Post(':id/revoke')
  @HttpCode(200)
  @RequireRole('SUPPORT')
  revoke(@CurrentOperator() caller: OperatorPrincipal, @Param('id', UuidPipe) id: string) {
    return this.tokens.revoke(caller, id);
  }
}
