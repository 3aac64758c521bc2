// An organisation's credentials: API keys and OAuth clients on the operator surface, and the cached
// lookups the auth guard and the token endpoint use.
import { Module } from '@nestjs/common';

import { AuditModule } from '../audit/audit.module.js';
import { OrgsModule } from '../orgs/orgs.module.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysService } from './api-keys.service.js';
import { CredentialsRepository } from './credentials.repository.js';
import { CredentialsService } from './credentials.service.js';
import { OAuthClientsController } from './oauth-clients.controller.js';
import { OAuthClientsService } from './oauth-clients.service.js';
import { UsedSignaturesSweeper } from './used-signatures.sweeper.js';

@Module({
  imports: [OrgsModule, AuditModule],
  controllers: [ApiKeysController, OAuthClientsController],
  providers: [
    CredentialsRepository,
    CredentialsService,
    ApiKeysService,
    OAuthClientsService,
    UsedSignaturesSweeper,
  ],
  exports: [CredentialsRepository, CredentialsService, ApiKeysService, OAuthClientsService],
})
export class CredentialsModule {}
