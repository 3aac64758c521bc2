// The operator console (docs/console.md): pages under /console/ for operators, signed in with the admin
// api's console session; each page calls the features' services as the admin api's routes do.
import { Module } from '@nestjs/common';

import { ActivityModule } from '../activity/activity.module.js';
import { AuditModule } from '../audit/audit.module.js';
import { CredentialsModule } from '../credentials/credentials.module.js';
import { KycModule } from '../kyc/kyc.module.js';
import { NoticesModule } from '../notices/notices.module.js';
import { OperatorsModule } from '../operators/operators.module.js';
import { OrgsModule } from '../orgs/orgs.module.js';
import { PolicyModule } from '../policy/policy.module.js';
import { PricesModule } from '../prices/prices.module.js';
import { WebModule } from '../web/web.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { ConsoleAuditController, ConsoleAuditExportController } from './pages/audit.controller.js';
import { ConsoleHomeController } from './pages/home.controller.js';
import { ConsoleKycController, ConsoleKycDocumentsController } from './pages/kyc.controller.js';
import { ConsoleNoticesController } from './pages/notices.controller.js';
import { ConsoleOperatorsController } from './pages/operators.controller.js';
import { ConsoleOrgCredentialsController } from './pages/org-credentials.controller.js';
import { ConsoleOrgsController } from './pages/orgs.controller.js';
import { ConsolePricesController } from './pages/prices.controller.js';
import { ConsoleSignInController } from './pages/sign-in.controller.js';
import { ConsoleWebhooksController } from './pages/webhooks.controller.js';
// The area registers itself (web/web-areas.ts) when this module is loaded, before the app answers.
import './console-area.js';

@Module({
  imports: [
    OperatorsModule,
    WebModule,
    // The administration sections (docs/console.md): the features whose services the pages call.
    ActivityModule,
    AuditModule,
    CredentialsModule,
    KycModule,
    NoticesModule,
    OrgsModule,
    PolicyModule,
    PricesModule,
    WebhooksModule,
  ],
  controllers: [
    ConsoleSignInController,
    ConsoleHomeController,
    ConsoleAuditExportController,
    ConsoleKycController,
    ConsoleKycDocumentsController,
    ConsoleOrgsController,
    ConsoleOrgCredentialsController,
    ConsolePricesController,
    ConsoleNoticesController,
    ConsoleWebhooksController,
    ConsoleAuditController,
    ConsoleOperatorsController,
  ],
})
export class ConsoleModule {}
