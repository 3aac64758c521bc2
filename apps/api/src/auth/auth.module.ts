// Who is calling: the one global guard over the bearer and API key strategies and the operators' credentials
// (docs/decisions.md, "Authentication: either method on every organisation route"). The guard applies to
// every route through APP_GUARD; the module itself is not global.
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';

import { CredentialsModule } from '../credentials/credentials.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { OperatorsModule } from '../operators/operators.module.js';
import { BearerStrategy } from './bearer.strategy.js';
import { HmacStrategy } from './hmac.strategy.js';
import { OrgAuthGuard } from './org-auth.guard.js';

@Module({
  imports: [PassportModule, CredentialsModule, MetricsModule, OperatorsModule],
  providers: [HmacStrategy, BearerStrategy, { provide: APP_GUARD, useClass: OrgAuthGuard }],
})
export class AuthModule {}
