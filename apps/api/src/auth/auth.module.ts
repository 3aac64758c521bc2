// Who is calling: the one global guard and the authentication service behind it, over the bearer and API
// key passport strategies, the operators' credentials and the dashboard's sessions (docs/decisions.md,
// "Authentication: one way in"). The guard applies to every route through APP_GUARD; the module itself is
// not global. The Idempotency-Key guard comes second: global guards run in the order they are provided, and
// it needs the caller the first one found.
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';

import { CredentialsModule } from '../credentials/credentials.module.js';
import { DashboardSessionsModule } from '../dashboard/dashboard-sessions.module.js';
import { IdempotencyGuard } from '../idempotency/idempotency.guard.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { OperatorsModule } from '../operators/operators.module.js';
import { OrgsModule } from '../orgs/orgs.module.js';
import { WebModule } from '../web/web.module.js';
import { AuthenticationService } from './authentication.service.js';
import { BearerStrategy } from './bearer.strategy.js';
import { HmacStrategy } from './hmac.strategy.js';
import { RouteAuthGuard } from './route-auth.guard.js';

@Module({
  imports: [
    PassportModule,
    CredentialsModule,
    MetricsModule,
    OperatorsModule,
    DashboardSessionsModule,
    IdempotencyModule,
    OrgsModule,
    WebModule,
  ],
  providers: [
    HmacStrategy,
    BearerStrategy,
    AuthenticationService,
    { provide: APP_GUARD, useClass: RouteAuthGuard },
    { provide: APP_GUARD, useClass: IdempotencyGuard },
  ],
})
export class AuthModule {}
