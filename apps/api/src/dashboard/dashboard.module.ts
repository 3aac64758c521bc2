// The organisation dashboard (docs/dashboard.md): sign-in links on the api, and the pages under
// /dashboard/, which call the features' services directly with the session's organisation.
import { type DynamicModule, Module } from '@nestjs/common';

import { ActivityModule } from '../activity/activity.module.js';
import { CredentialsModule } from '../credentials/credentials.module.js';
import { EventLogModule } from '../event-log/event-log.module.js';
import { KycModule } from '../kyc/kyc.module.js';
import { OrgsModule } from '../orgs/orgs.module.js';
import { UsersModule } from '../users/users.module.js';
import { WebModule } from '../web/web.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { DashboardSessionsController } from './dashboard-sessions.controller.js';
import { DashboardSessionsModule } from './dashboard-sessions.module.js';
import { CatalogueController } from './pages/catalogue.controller.js';
import { CredentialsPageController } from './pages/credentials.controller.js';
import { DashboardExportsController } from './pages/exports.controller.js';
import { EventsPageController } from './pages/events.controller.js';
import { OrdersPageController } from './pages/orders.controller.js';
import { OverviewController } from './pages/overview.controller.js';
import { SignInController } from './pages/sign-in.controller.js';
import { UsersPageController } from './pages/users.controller.js';
import { WebhookPageController } from './pages/webhook.controller.js';
// The area registers itself (web/web-areas.ts) when this module is loaded, before the app answers.
import './dashboard-area.js';

@Module({})
export class DashboardModule {
  /** `orders`: the app's OrdersModule (a dynamic module: its venue is the app's). */
  static forRoot(orders: DynamicModule): DynamicModule {
    return {
      module: DashboardModule,
      imports: [
        ActivityModule,
        OrgsModule,
        UsersModule,
        KycModule,
        CredentialsModule,
        WebhooksModule,
        EventLogModule,
        DashboardSessionsModule,
        WebModule,
        orders,
      ],
      controllers: [
        DashboardSessionsController,
        SignInController,
        OverviewController,
        WebhookPageController,
        EventsPageController,
        UsersPageController,
        OrdersPageController,
        DashboardExportsController,
        CredentialsPageController,
        CatalogueController,
      ],
      providers: [],
    };
  }
}
