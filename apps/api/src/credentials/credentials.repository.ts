// Every query of an organisation's credentials: api_keys, oauth_clients, oauth_tokens and used_signatures.
// Style: SQL for used_signatures, claimed on every signed request and swept; TypeORM for api_keys,
// oauth_clients and oauth_tokens, but for two statements: the last-used touch, on every signed request (once
// a minute per credential), and the event streams' one UNION read of which credentials still live. On the
// signed path one plain statement costs about half the CPU of the query builder's (docs/decisions.md,
// "Request path: SQL on the hot tables": the signed routes' CPU target); on a pool connection through
// @svc/db's `query`, not TypeORM's.
import { Injectable } from '@nestjs/common';
import { ApiKey, OAuthClient, OAuthToken, query } from '@svc/db';
import { DataSource, type EntityManager, IsNull } from 'typeorm';

import type { CredentialRef } from '../common/params.js';

export type NewApiKey = Pick<ApiKey, 'orgId' | 'key' | 'secretCiphertext' | 'label'>;
export type NewOAuthClient = Pick<OAuthClient, 'orgId' | 'clientId' | 'secretHash' | 'scopes' | 'label'>;
export type NewOAuthToken = Pick<OAuthToken, 'tokenHash' | 'clientId' | 'orgId' | 'scopes' | 'expiresAt'>;

@Injectable()
export class CredentialsRepository {
  constructor(private readonly dataSource: DataSource) {}

  insertApiKey(manager: EntityManager, values: NewApiKey): Promise<ApiKey> {
    return manager.save(manager.create(ApiKey, { ...values, revokedAt: null, lastUsedAt: null }));
  }

  /** The unrevoked key with this public value. */
  findLiveApiKey(key: string): Promise<ApiKey | null> {
    return this.dataSource.getRepository(ApiKey).findOneBy({ key, revokedAt: IsNull() });
  }

  /** The organisation's key named by `ref`, locked for the rest of the transaction. */
  lockApiKey(manager: EntityManager, orgId: number, ref: CredentialRef): Promise<ApiKey | null> {
    return manager.getRepository(ApiKey).findOne({
      where: 'id' in ref ? { orgId, id: ref.id } : { orgId, key: ref.publicValue },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Every key of the organisation, revoked ones too, oldest first. */
  listApiKeys(orgId: number): Promise<ApiKey[]> {
    return this.dataSource
      .getRepository(ApiKey)
      .find({ where: { orgId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async revokeApiKey(manager: EntityManager, key: ApiKey, at: Date): Promise<void> {
    await manager.update(ApiKey, { id: key.id }, { revokedAt: at });
  }

  insertClient(manager: EntityManager, values: NewOAuthClient): Promise<OAuthClient> {
    return manager.save(manager.create(OAuthClient, { ...values, revokedAt: null, lastUsedAt: null }));
  }

  /** The unrevoked client with this client_id. */
  findLiveClient(clientId: string): Promise<OAuthClient | null> {
    return this.dataSource.getRepository(OAuthClient).findOneBy({ clientId, revokedAt: IsNull() });
  }

  /** The organisation's client named by `ref`, locked for the rest of the transaction. */
  lockClient(manager: EntityManager, orgId: number, ref: CredentialRef): Promise<OAuthClient | null> {
    return manager.getRepository(OAuthClient).findOne({
      where: 'id' in ref ? { orgId, id: ref.id } : { orgId, clientId: ref.publicValue },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Every client of the organisation, revoked ones too, oldest first. */
  listClients(orgId: number): Promise<OAuthClient[]> {
    return this.dataSource
      .getRepository(OAuthClient)
      .find({ where: { orgId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async revokeClient(manager: EntityManager, client: OAuthClient, at: Date): Promise<void> {
    await manager.update(OAuthClient, { id: client.id }, { revokedAt: at });
  }

  async insertToken(values: NewOAuthToken): Promise<void> {
    await this.dataSource.getRepository(OAuthToken).insert(values);
  }

  /** The unrevoked token with this hash whose client is not revoked; its expiry is the caller's to check. */
  findLiveToken(tokenHash: string): Promise<OAuthToken | null> {
    return this.dataSource
      .getRepository(OAuthToken)
      .createQueryBuilder('token')
      .innerJoin(OAuthClient, 'client', 'client.id = token.client_id AND client.revoked_at IS NULL')
      .where('token.token_hash = :tokenHash AND token.revoked_at IS NULL', { tokenHash })
      .getOne();
  }

  /**
   * Which of these credentials still authenticate: keys not revoked; tokens not revoked nor expired, their
   * client not revoked. One statement for every stream an instance holds open.
   */
  async liveCredentialIds(apiKeyIds: readonly string[], tokenIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.dataSource.query<{ id: string }[]>(
      `SELECT id FROM api_keys WHERE id = ANY($1::uuid[]) AND revoked_at IS NULL
       UNION ALL
       SELECT t.id FROM oauth_tokens t JOIN oauth_clients c ON c.id = t.client_id AND c.revoked_at IS NULL
        WHERE t.id = ANY($2::uuid[]) AND t.revoked_at IS NULL AND t.expires_at > now()`,
      [apiKeyIds, tokenIds],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** Revokes the unexpired, unrevoked tokens of one client or of a whole organisation; answers how many. */
  async revokeTokens(
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

  /** Sets last_used_at of the API key or OAuth client to now, unless it was set within the last minute. */
  async touch(table: 'api_keys' | 'oauth_clients', id: string): Promise<void> {
    await query(
      this.dataSource,
      `UPDATE ${table} SET last_used_at = now() WHERE id = $1 ` +
        "AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')",
      [id],
    );
  }

  /** Records the (key, signature) pair until `expiresAt`; false when it was recorded before. */
  async claimSignature(apiKeyId: string, signature: string, expiresAt: Date): Promise<boolean> {
    const rows = await query(
      this.dataSource,
      'INSERT INTO used_signatures (api_key_id, signature, expires_at) VALUES ($1, $2, $3) ' +
        'ON CONFLICT DO NOTHING RETURNING signature',
      [apiKeyId, signature, expiresAt],
    );
    return rows.length === 1;
  }

  async deleteExpiredSignatures(): Promise<number> {
    const [row] = await query<{ n: number }>(
      this.dataSource,
      'WITH deleted AS (DELETE FROM used_signatures WHERE expires_at < now() RETURNING 1) SELECT count(*)::int AS n FROM deleted',
    );
    return row?.n ?? 0;
  }
}
