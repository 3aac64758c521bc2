// An organisation's API keys (DESIGN section 6): several live at once for rotation; the secret is in the
// issuing answer only. Revocation drops this instance's credential cache after the commit, so the key
// is refused here at once and on the other instances when their 0.5 s cache entry expires.
import { Injectable } from '@nestjs/common';
import { ApiKey } from '@svc/db';
import { DataSource, type EntityManager } from 'typeorm';

import { CredentialsService } from '../auth/credentials.service.js';
import { notFound } from '../common/errors.js';
import { apiKeyView, type ApiKeyView } from './admin.views.js';
import { AuditService } from './audit.service.js';
import type { IssueApiKeyDto } from './dto/issue-credential.dto.js';
import { findOrg } from './orgs.service.js';
import type { CredentialRef } from './params.js';
import { ProvisioningService } from './provisioning.service.js';

export type IssuedApiKeyView = ApiKeyView & { readonly apiSecret: string };

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly provisioning: ProvisioningService,
    private readonly audit: AuditService,
    private readonly credentials: CredentialsService,
  ) {}

  issue(actor: string, orgId: number, input: IssueApiKeyDto): Promise<IssuedApiKeyView> {
    return this.dataSource.transaction(async (manager) => {
      await findOrg(manager, orgId);
      const issued = await this.provisioning.issueApiKey(orgId, input.label ?? '', manager);
      await this.audit.record(manager, {
        actor,
        action: 'api-key.issue',
        orgId,
        details: { id: issued.id, apiKey: issued.apiKey, label: issued.label },
      });
      return {
        id: issued.id,
        orgId,
        apiKey: issued.apiKey,
        apiSecret: issued.apiSecret,
        label: issued.label,
        createdAt: issued.createdAt.toISOString(),
        revokedAt: null,
      };
    });
  }

  /** Every key of the organisation, revoked ones too, oldest first: a handful, so not paginated. */
  async list(orgId: number): Promise<{ items: ApiKeyView[] }> {
    await findOrg(this.dataSource.manager, orgId);
    const rows = await this.dataSource
      .getRepository(ApiKey)
      .find({ where: { orgId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return { items: rows.map(apiKeyView) };
  }

  /** Idempotent: revoking a revoked key answers it unchanged (and is audited as such). */
  async revoke(actor: string, orgId: number, ref: CredentialRef): Promise<ApiKeyView> {
    const view = await this.dataSource.transaction(async (manager) => {
      const key = await this.find(manager, orgId, ref);
      const alreadyRevoked = key.revokedAt !== null;
      if (!alreadyRevoked) {
        key.revokedAt = new Date();
        await manager.update(ApiKey, { id: key.id }, { revokedAt: key.revokedAt });
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

  private async find(manager: EntityManager, orgId: number, ref: CredentialRef): Promise<ApiKey> {
    await findOrg(manager, orgId);
    const key = await manager.getRepository(ApiKey).findOne({
      where: 'id' in ref ? { orgId, id: ref.id } : { orgId, key: ref.publicValue },
      lock: { mode: 'pessimistic_write' },
    });
    if (!key) {
      const name = 'id' in ref ? ref.id : ref.publicValue;
      throw notFound(`organisation ${orgId} has no API key ${name}`);
    }
    return key;
  }
}
