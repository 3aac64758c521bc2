import { Module } from '@nestjs/common';

import { CredentialsModule } from '../credentials/credentials.module.js';
import { OAuthController } from './oauth.controller.js';
import { OAuthService } from './oauth.service.js';

@Module({ imports: [CredentialsModule], controllers: [OAuthController], providers: [OAuthService] })
export class OAuthModule {}
