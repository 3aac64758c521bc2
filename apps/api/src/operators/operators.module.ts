// Operators as people (docs/operators.md): accounts and roles, personal tokens, console sign-in, and the
// authentication of every operator route (OperatorAuthService, which the global guard calls).
import { Module } from '@nestjs/common';

import { AuditModule } from '../audit/audit.module.js';
import { WebModule } from '../web/web.module.js';
import { OperatorAuthService } from './operator-auth.service.js';
import { OperatorsController } from './operators.controller.js';
import { OperatorsRepository } from './operators.repository.js';
import { OperatorsService } from './operators.service.js';
import { PersonalTokensController } from './personal-tokens.controller.js';
import { PersonalTokensService } from './personal-tokens.service.js';
import { EnrolmentService } from './enrolment.service.js';
import { OidcController } from './oidc.controller.js';
import { OidcService } from './oidc.service.js';
import { SessionController } from './session.controller.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { SignInService } from './sign-in.service.js';

@Module({
  imports: [AuditModule, WebModule],
  controllers: [SessionController, OidcController, OperatorsController, PersonalTokensController],
  providers: [
    OperatorsRepository,
    OperatorAuthService,
    OperatorsService,
    PersonalTokensService,
    EnrolmentService,
    SignInThrottle,
    SignInService,
    OidcService,
  ],
  exports: [
    OperatorsRepository,
    OperatorAuthService,
    OperatorsService,
    PersonalTokensService,
    EnrolmentService,
    SignInService,
  ],
})
export class OperatorsModule {}
