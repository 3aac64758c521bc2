// The operator surface (/api/v1/admin/..., the admin token): organisations, their API keys, OAuth clients
// and tokens, and the audit log. Global so other features' operator routes (KYC review, policy) can
// provision and audit through the same services.
import { Global, Module } from '@nestjs/common';

import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysService } from './api-keys.service.js';
import { AuditController } from './audit.controller.js';
import { AuditService } from './audit.service.js';
import { OAuthClientsController } from './oauth-clients.controller.js';
import { OAuthClientsService } from './oauth-clients.service.js';
import { OrgsController } from './orgs.controller.js';
import { OrgsService } from './orgs.service.js';
import { ProvisioningService } from './provisioning.service.js';

@Global()
@Module({
  controllers: [OrgsController, ApiKeysController, OAuthClientsController, AuditController],
  providers: [ProvisioningService, AuditService, OrgsService, ApiKeysService, OAuthClientsService],
  exports: [ProvisioningService, AuditService],
})
export class AdminModule {}
