// An organisation's API keys (docs/decisions.md, "Authentication: the credentials cache and revocation"):
// several live at once for rotation; the secret is in the issuing answer only, and stored encrypted (HMAC
// needs it in clear). Revocation drops this instance's credential cache after the commit, so the key is
// refused here at once and on the other instances when their 0.5 s cache entry expires.
import { Inject, Injectable } from '@nestjs/common';
import { transaction } from '@svc/db';
import { DataSource, type EntityManager } from 'typeorm';

import { AuditService } from '../audit/audit.service.js';
import type { AuditActor } from '../audit/admin-actor.decorator.js';
import { notFound } from '../common/errors.js';
import type { CredentialRef } from '../common/params.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { OrgsService } from '../orgs/orgs.service.js';
import { apiKeyView, type ApiKeyView } from './credential.view.js';
import { CredentialsRepository } from './credentials.repository.js';
import { CredentialsService } from './credentials.service.js';
import type { IssueApiKeyDto } from './dto/issue-credential.dto.js';
import { encryptSecret, newCredential } from './secrets.js';

export type IssuedApiKeyView = ApiKeyView & { readonly apiSecret: string };

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: CredentialsRepository,
    private readonly orgs: OrgsService,
    private readonly audit: AuditService,
    private readonly credentials: CredentialsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Issues a key, audited as `actor`; the answer holds apiSecret, the only time it is shown. */
  issue(actor: AuditActor, orgId: number, input: IssueApiKeyDto): Promise<IssuedApiKeyView> {
    return transaction(this.dataSource, async (manager) => {
      await this.orgs.find(manager, orgId);
      const apiSecret = newCredential('sk', 32);
      const row = await this.repository.insertApiKey(manager, {
        orgId,
        key: newCredential('pk', 18),
        secretCiphertext: encryptSecret(this.config.masterKey, apiSecret),
        label: input.label ?? '',
      });
      await this.audit.record(manager, {
        actor,
        action: 'api-key.issue',
        orgId,
        details: { id: row.id, apiKey: row.key, label: row.label },
      });
      const { id, apiKey, label, createdAt, revokedAt, lastUsedAt } = apiKeyView(row);
      return { id, orgId, apiKey, apiSecret, label, createdAt, revokedAt, lastUsedAt };
    });
  }

  /** Every key of the organisation, revoked ones too, oldest first: a handful, so not paginated. */
  async list(orgId: number): Promise<{ items: ApiKeyView[] }> {
    await this.orgs.find(this.dataSource.manager, orgId);
    return { items: (await this.repository.listApiKeys(orgId)).map(apiKeyView) };
  }

  /** Idempotent: revoking a revoked key answers it unchanged (and is audited as such). */
  async revoke(actor: AuditActor, orgId: number, ref: CredentialRef): Promise<ApiKeyView> {
    const view = await transaction(this.dataSource, async (manager) => {
      const key = await this.lock(manager, orgId, ref);
      const alreadyRevoked = key.revokedAt !== null;
      if (!alreadyRevoked) {
        key.revokedAt = new Date();
        await this.repository.revokeApiKey(manager, key, key.revokedAt);
      }
      await this.audit.record(manager, {
        actor,
        action: 'api-key.revoke',
        orgId,
        details: { id: key.id, apiKey: key.key, alreadyRevoked },
      });
      return apiKeyView(key);
    });
    this.credentials.forget();
    return view;
  }

  private async lock(manager: EntityManager, orgId: number, ref: CredentialRef) {
    await this.orgs.find(manager, orgId);
    const key = await this.repository.lockApiKey(manager, orgId, ref);
    if (!key)
      throw notFound(`organisation ${orgId} has no API key ${'id' in ref ? ref.id : ref.publicValue}`);
    return key;
  }
}
