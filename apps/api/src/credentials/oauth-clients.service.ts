// An organisation's OAuth clients and their access tokens (DESIGN section 6). The client secret is in
// the issuing answer only. Revoking a client revokes its tokens too; an organisation's tokens can also
// be revoked all at once (a leaked token: clients fetch a new one with their credentials). Both drop this
// instance's credential cache after the commit; other instances follow within their 0.5 s cache TTL.
import { Injectable } from '@nestjs/common';
import { OAuthClient, OAuthToken } from '@svc/db';
import { parseScopes, type Scope, ScopeError } from '@svc/protocol';
import { DataSource, type EntityManager } from 'typeorm';

import { CredentialsService } from '../auth/credentials.service.js';
import { badRequest, notFound } from '../common/errors.js';
import { oauthClientView, type OAuthClientView } from './admin.views.js';
import { AuditService } from './audit.service.js';
import type { IssueOAuthClientDto } from './dto/issue-credential.dto.js';
import { findOrg } from './orgs.service.js';
import type { CredentialRef } from './params.js';
import { ProvisioningService } from './provisioning.service.js';

export type IssuedOAuthClientView = OAuthClientView & { readonly clientSecret: string };

function grantedScopes(text: string): Scope[] {
  let scopes: Scope[];
  try {
    scopes = parseScopes(text);
  } catch (error) {
    if (error instanceof ScopeError) throw badRequest(`scopes: ${error.message}`);
    throw error;
  }
  if (scopes.length === 0)
    throw badRequest('scopes must name at least one MODULE:PERMISSION, space-separated');
  return scopes;
}

@Injectable()
export class OAuthClientsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly provisioning: ProvisioningService,
    private readonly audit: AuditService,
    private readonly credentials: CredentialsService,
  ) {}

  issue(actor: string, orgId: number, input: IssueOAuthClientDto): Promise<IssuedOAuthClientView> {
    const scopes = grantedScopes(input.scopes);
    return this.dataSource.transaction(async (manager) => {
      await findOrg(manager, orgId);
      const issued = await this.provisioning.issueOAuthClient(orgId, scopes, input.label ?? '', manager);
      await this.audit.record(manager, {
        actor,
        action: 'oauth-client.issue',
        orgId,
        details: { id: issued.id, clientId: issued.clientId, scopes, label: issued.label },
      });
      return {
        id: issued.id,
        orgId,
        clientId: issued.clientId,
        clientSecret: issued.clientSecret,
        scopes,
        label: issued.label,
        createdAt: issued.createdAt.toISOString(),
        revokedAt: null,
      };
    });
  }

  /** Every client of the organisation, revoked ones too, oldest first: a handful, so not paginated. */
  async list(orgId: number): Promise<{ items: OAuthClientView[] }> {
    await findOrg(this.dataSource.manager, orgId);
    const rows = await this.dataSource
      .getRepository(OAuthClient)
      .find({ where: { orgId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return { items: rows.map(oauthClientView) };
  }

  /** Revokes the client and its unrevoked tokens. Idempotent, like API key revocation. */
  async revoke(
    actor: string,
    orgId: number,
    ref: CredentialRef,
  ): Promise<OAuthClientView & { tokensRevoked: number }> {
    const view = await this.dataSource.transaction(async (manager) => {
      const client = await this.find(manager, orgId, ref);
      const alreadyRevoked = client.revokedAt !== null;
      if (!alreadyRevoked) {
        client.revokedAt = new Date();
        await manager.update(OAuthClient, { id: client.id }, { revokedAt: client.revokedAt });
      }
      const tokensRevoked = await this.revokeTokens(manager, { clientId: client.id });
      await this.audit.record(manager, {
        actor,
        action: 'oauth-client.revoke',
        orgId,
        details: { id: client.id, clientId: client.clientId, alreadyRevoked, tokensRevoked },
      });
      return { ...oauthClientView(client), tokensRevoked };
    });
    this.credentials.forget();
    return view;
  }

  /** Revokes every unexpired, unrevoked token of the organisation, whichever client it came from. */
  async revokeOrgTokens(actor: string, orgId: number): Promise<{ revoked: number }> {
    const result = await this.dataSource.transaction(async (manager) => {
      await findOrg(manager, orgId);
      const revoked = await this.revokeTokens(manager, { orgId });
      await this.audit.record(manager, { actor, action: 'oauth-token.revoke', orgId, details: { revoked } });
      return { revoked };
    });
    this.credentials.forget();
    return result;
  }

  private async revokeTokens(
    manager: EntityManager,
    owner: { clientId: string } | { orgId: number },
  ): Promise<number> {
    const result = await manager
      .createQueryBuilder()
      .update(OAuthToken)
      .set({ revokedAt: () => 'now()' })
      .where('revoked_at IS NULL AND expires_at > now()')
      .andWhere('clientId' in owner ? 'client_id = :clientId' : 'org_id = :orgId', owner)
      .execute();
    return result.affected ?? 0;
  }

  private async find(manager: EntityManager, orgId: number, ref: CredentialRef): Promise<OAuthClient> {
    await findOrg(manager, orgId);
    const client = await manager.getRepository(OAuthClient).findOne({
      where: 'id' in ref ? { orgId, id: ref.id } : { orgId, clientId: ref.publicValue },
      lock: { mode: 'pessimistic_write' },
    });
    if (!client) {
      const name = 'id' in ref ? ref.id : ref.publicValue;
      throw notFound(`organisation ${orgId} has no OAuth client ${name}`);
    }
    return client;
  }
}
