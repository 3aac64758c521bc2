// An organisation's OAuth clients and their access tokens (docs/decisions.md, "Authentication: the
// credentials cache and revocation"). The client secret is in the issuing answer only, and stored under a
// slow hash. Revoking a client revokes its tokens too; an organisation's tokens can also be revoked all at
// once (a leaked token: clients fetch a new one with their credentials). Both drop this instance's credential
// cache after the commit; other instances follow within their 0.5 s cache TTL.
import { Injectable } from '@nestjs/common';
import { parseScopes, type Scope, ScopeError } from '@svc/protocol';
import { transaction } from '@svc/db';
import { DataSource, type EntityManager } from 'typeorm';

import { AuditService } from '../audit/audit.service.js';
import type { AuditActor } from '../audit/admin-actor.decorator.js';
import { badRequest, notFound } from '../common/errors.js';
import type { CredentialRef } from '../common/params.js';
import { OrgsService } from '../orgs/orgs.service.js';
import { oauthClientView, type OAuthClientView } from './credential.view.js';
import { CredentialsRepository } from './credentials.repository.js';
import { CredentialsService } from './credentials.service.js';
import type { IssueOAuthClientDto } from './dto/issue-credential.dto.js';
import { hashSecret, newCredential } from './secrets.js';

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
    private readonly repository: CredentialsRepository,
    private readonly orgs: OrgsService,
    private readonly audit: AuditService,
    private readonly credentials: CredentialsService,
  ) {}

  /** Issues a client, audited as `actor`; the answer holds clientSecret, the only time it is shown. */
  issue(actor: AuditActor, orgId: number, input: IssueOAuthClientDto): Promise<IssuedOAuthClientView> {
    const scopes = grantedScopes(input.scopes);
    return transaction(this.dataSource, async (manager) => {
      await this.orgs.find(manager, orgId);
      const clientSecret = newCredential('cs', 32);
      const row = await this.repository.insertClient(manager, {
        orgId,
        clientId: newCredential('cl', 12),
        secretHash: await hashSecret(clientSecret),
        scopes,
        label: input.label ?? '',
      });
      await this.audit.record(manager, {
        actor,
        action: 'oauth-client.issue',
        orgId,
        details: { id: row.id, clientId: row.clientId, scopes, label: row.label },
      });
      const { id, clientId, label, createdAt, revokedAt, lastUsedAt } = oauthClientView(row);
      return { id, orgId, clientId, clientSecret, scopes, label, createdAt, revokedAt, lastUsedAt };
    });
  }

  /** Every client of the organisation, revoked ones too, oldest first: a handful, so not paginated. */
  async list(orgId: number): Promise<{ items: OAuthClientView[] }> {
    await this.orgs.find(this.dataSource.manager, orgId);
    return { items: (await this.repository.listClients(orgId)).map(oauthClientView) };
  }

  /** Revokes the client and its unrevoked tokens. Idempotent, like API key revocation. */
  async revoke(
    actor: AuditActor,
    orgId: number,
    ref: CredentialRef,
  ): Promise<OAuthClientView & { tokensRevoked: number }> {
    const view = await transaction(this.dataSource, async (manager) => {
      const client = await this.lock(manager, orgId, ref);
      const alreadyRevoked = client.revokedAt !== null;
      if (!alreadyRevoked) {
        client.revokedAt = new Date();
        await this.repository.revokeClient(manager, client, client.revokedAt);
      }
      const tokensRevoked = await this.repository.revokeTokens(manager, { clientId: client.id });
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
  async revokeOrgTokens(actor: AuditActor, orgId: number): Promise<{ revoked: number }> {
    const result = await transaction(this.dataSource, async (manager) => {
      await this.orgs.find(manager, orgId);
      const revoked = await this.repository.revokeTokens(manager, { orgId });
      await this.audit.record(manager, { actor, action: 'oauth-token.revoke', orgId, details: { revoked } });
      return { revoked };
    });
    this.credentials.forget();
    return result;
  }

  private async lock(manager: EntityManager, orgId: number, ref: CredentialRef) {
    await this.orgs.find(manager, orgId);
    const client = await this.repository.lockClient(manager, orgId, ref);
    if (!client) {
      throw notFound(`organisation ${orgId} has no OAuth client ${'id' in ref ? ref.id : ref.publicValue}`);
    }
    return client;
  }
}
