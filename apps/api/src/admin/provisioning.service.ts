// Creates organisations and their credentials. Secrets are returned once, here, and stored only
// encrypted (API secrets) or hashed (OAuth client secrets): DESIGN section 6.
import { Inject, Injectable } from '@nestjs/common';
import { ApiKey, DEFAULT_POLICY, OAuthClient, Organisation, type OrgPlan, type OrgPolicy } from '@svc/db';
import type { Scope } from '@svc/protocol';
import { DataSource, type EntityManager } from 'typeorm';

import { encryptSecret, hashSecret, newCredential } from '../auth/secrets.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';

export interface NewOrganisation {
  readonly name: string;
  readonly kycDomain: string;
  readonly plan: OrgPlan;
  readonly supportEmails?: readonly string[];
  readonly policy?: Partial<OrgPolicy>;
}

export interface IssuedApiKey {
  readonly id: string;
  readonly apiKey: string;
  /** Shown once. */
  readonly apiSecret: string;
  readonly label: string;
  readonly createdAt: Date;
}

export interface IssuedClient {
  readonly id: string;
  readonly clientId: string;
  /** Shown once. */
  readonly clientSecret: string;
  readonly scopes: readonly Scope[];
  readonly label: string;
  readonly createdAt: Date;
}

@Injectable()
export class ProvisioningService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async createOrganisation(
    input: NewOrganisation,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Organisation> {
    const org = manager.create(Organisation, {
      name: input.name,
      kycDomain: input.kycDomain.toLowerCase(),
      plan: input.plan,
      supportEmails: [...(input.supportEmails ?? [])],
      policy: { ...DEFAULT_POLICY, ...input.policy },
    });
    return manager.save(org);
  }

  async issueApiKey(
    orgId: number,
    label = '',
    manager: EntityManager = this.dataSource.manager,
  ): Promise<IssuedApiKey> {
    const apiKey = newCredential('pk', 18);
    const apiSecret = newCredential('sk', 32);
    const row = await manager.save(
      manager.create(ApiKey, {
        orgId,
        key: apiKey,
        secretCiphertext: encryptSecret(this.config.masterKey, apiSecret),
        label,
        revokedAt: null,
      }),
    );
    return { id: row.id, apiKey, apiSecret, label: row.label, createdAt: row.createdAt };
  }

  async issueOAuthClient(
    orgId: number,
    scopes: readonly Scope[],
    label = '',
    manager: EntityManager = this.dataSource.manager,
  ): Promise<IssuedClient> {
    const clientId = newCredential('cl', 12);
    const clientSecret = newCredential('cs', 32);
    const row = await manager.save(
      manager.create(OAuthClient, {
        orgId,
        clientId,
        secretHash: await hashSecret(clientSecret),
        scopes: [...scopes],
        label,
        revokedAt: null,
      }),
    );
    return { id: row.id, clientId, clientSecret, scopes, label: row.label, createdAt: row.createdAt };
  }
}
