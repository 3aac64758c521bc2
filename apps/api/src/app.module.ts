import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

import { AuditModule } from './audit/audit.module.js';
import { AuthModule } from './auth/auth.module.js';
import { AllExceptionsFilter } from './common/exception.filter.js';
import type { AppConfig } from './config/config.js';
import { ConsoleModule } from './console/console.module.js';
import { CoreModule } from './core.module.js';
import { CredentialsModule } from './credentials/credentials.module.js';
import { DashboardModule } from './dashboard/dashboard.module.js';
import { DatabaseModule } from './database/database.module.js';
import { EventLogModule } from './event-log/event-log.module.js';
import { HealthModule } from './health/health.module.js';
import { KycModule } from './kyc/kyc.module.js';
import { MarketDataModule } from './market-data/market-data.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { NoticesModule } from './notices/notices.module.js';
import { OAuthModule } from './oauth/oauth.module.js';
import { OperatorsModule } from './operators/operators.module.js';
import { OrdersModule } from './orders/orders.module.js';
import type { Venue } from './orders/venue.js';
import { OrgsModule } from './orgs/orgs.module.js';
import { PolicyModule } from './policy/policy.module.js';
import { PricesModule } from './prices/prices.module.js';
import { SandboxModule } from './sandbox/sandbox.module.js';
import { UsersModule } from './users/users.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

export interface AppDependencies {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly dataSource: DataSource;
  readonly boss: PgBoss;
  /** Where orders execute; the default venue fills at operator-set prices. */
  readonly venue?: Venue;
  /** Modules only tests add, e.g. a route that throws (test/support/test-routes.module.ts). */
  readonly testModules?: readonly (Type | DynamicModule)[];
}

@Module({})
export class AppModule {
  static forRoot(deps: AppDependencies): DynamicModule {
    const orders = OrdersModule.forRoot(deps.venue);
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(deps.config, deps.logger),
        DatabaseModule.forRoot(deps.dataSource, deps.boss),
        AuditModule,
        EventLogModule,
        AuthModule,
        CredentialsModule,
        HealthModule,
        KycModule,
        MarketDataModule,
        MetricsModule,
        NoticesModule,
        OAuthModule,
        OperatorsModule,
        orders,
        OrgsModule,
        PolicyModule,
        PricesModule,
        SandboxModule,
        UsersModule,
        WebhooksModule,
        DashboardModule.forRoot(orders),
        ConsoleModule,
        ...(deps.testModules ?? []),
      ],
      providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }],
    };
  }
}
