// The operator console (docs/console.md): pages under /console/ for operators, signed in with the admin
// api's console session; each page calls the features' services as the admin api's routes do.
import { Module } from '@nestjs/common';

import { KycModule } from '../kyc/kyc.module.js';
import { OperatorsModule } from '../operators/operators.module.js';
import { OrgsModule } from '../orgs/orgs.module.js';
import { WebModule } from '../web/web.module.js';
import { ConsoleGuard } from './console.guard.js';
import { ConsoleHomeController } from './pages/home.controller.js';
import { ConsoleKycController, ConsoleKycDocumentsController } from './pages/kyc.controller.js';
import { ConsoleSignInController } from './pages/sign-in.controller.js';

@Module({
  imports: [OperatorsModule, WebModule, KycModule, OrgsModule],
  controllers: [
    ConsoleSignInController,
    ConsoleHomeController,
    ConsoleKycController,
    ConsoleKycDocumentsController,
  ],
  providers: [ConsoleGuard],
})
export class ConsoleModule {}
