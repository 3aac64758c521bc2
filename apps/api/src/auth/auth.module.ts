import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';

import { BearerStrategy } from './bearer.strategy.js';
import { CredentialsService } from './credentials.service.js';
import { HmacStrategy } from './hmac.strategy.js';
import { OrgAuthGuard } from './org-auth.guard.js';

@Global()
@Module({
  imports: [PassportModule],
  providers: [
    CredentialsService,
    HmacStrategy,
    BearerStrategy,
    { provide: APP_GUARD, useClass: OrgAuthGuard },
  ],
  exports: [CredentialsService],
})
export class AuthModule {}
