// Every query of dashboard_links and dashboard_sessions. Tokens are looked up by their SHA-256 only.
import { Injectable } from '@nestjs/common';
import { DashboardLink, DashboardSession, transaction } from '@svc/db';
import { DataSource, type EntityManager } from 'typeorm';

/** The credential that asked for a link, and so the one its session stands on: one of the two is set. */
export type LinkCreator = Pick<DashboardLink, 'apiKeyId' | 'oauthClientId'>;

export type NewLink = Pick<
  DashboardLink,
  'orgId' | 'tokenHash' | 'permissions' | 'pages' | 'sessionSeconds' | 'expiresAt'
> &
  LinkCreator;
export type NewSession = Pick<
  DashboardSession,
  'orgId' | 'tokenHash' | 'permissions' | 'pages' | 'expiresAt'
> &
  LinkCreator;

/**
 * The link or session (its table or alias `row`) was asked for by an API key or OAuth client that is not
 * revoked: part of every query that finds one, so a revocation ends them at once on every instance, for two
 * primary-key probes. A row that records no creator (from before they were recorded) never passes.
 */
const CREATOR_LIVE = (row: string) =>
  `(EXISTS (SELECT 1 FROM api_keys k WHERE k.id = ${row}.api_key_id AND k.revoked_at IS NULL)` +
  ` OR EXISTS (SELECT 1 FROM oauth_clients c WHERE c.id = ${row}.oauth_client_id AND c.revoked_at IS NULL))`;

@Injectable()
export class DashboardSessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insertLink(values: NewLink): Promise<DashboardLink> {
    const repository = this.dataSource.getRepository(DashboardLink);
    return repository.save(repository.create({ ...values, usedAt: null }));
  }

  /**
   * The link with this hash while it may still be opened (unused, unexpired, its creator not revoked),
   * without spending it.
   */
  findUsableLink(tokenHash: string): Promise<DashboardLink | null> {
    return this.dataSource
      .getRepository(DashboardLink)
      .createQueryBuilder('link')
      .where('link.token_hash = :tokenHash AND link.used_at IS NULL AND link.expires_at > now()', {
        tokenHash,
      })
      .andWhere(CREATOR_LIVE('link'))
      .getOne();
  }

  /**
   * Marks the usable link with this hash (as findUsableLink) as used and answers it; null when there is
   * none. One statement, so two openings of one link cannot both win.
   */
  async claimLink(manager: EntityManager, tokenHash: string): Promise<DashboardLink | null> {
    const [rows] = await manager.query<[{ id: string }[], number]>(
      'UPDATE dashboard_links SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() ' +
        `AND ${CREATOR_LIVE('dashboard_links')} RETURNING id`,
      [tokenHash],
    );
    const id = rows[0]?.id;
    return id === undefined ? null : manager.getRepository(DashboardLink).findOneByOrFail({ id });
  }

  insertSession(manager: EntityManager, values: NewSession): Promise<DashboardSession> {
    return manager.save(manager.create(DashboardSession, { ...values, endedAt: null }));
  }

  /** The session with this hash while it lasts (not ended, not expired, its creator not revoked). */
  findLiveSession(tokenHash: string): Promise<DashboardSession | null> {
    return this.dataSource
      .getRepository(DashboardSession)
      .createQueryBuilder('session')
      .where('session.token_hash = :tokenHash AND session.ended_at IS NULL AND session.expires_at > now()', {
        tokenHash,
      })
      .andWhere(CREATOR_LIVE('session'))
      .getOne();
  }

  async endSession(id: string): Promise<void> {
    await this.dataSource.query(
      'UPDATE dashboard_sessions SET ended_at = now() WHERE id = $1 AND ended_at IS NULL',
      [id],
    );
  }

  /** Ends the organisation's live sessions and voids its unused links; answers how many of each. */
  async endAll(orgId: number): Promise<{ sessionsEnded: number; linksRevoked: number }> {
    return transaction(this.dataSource, async (manager) => {
      const [, sessionsEnded] = await manager.query<[unknown[], number]>(
        'UPDATE dashboard_sessions SET ended_at = now() WHERE org_id = $1 AND ended_at IS NULL AND expires_at > now()',
        [orgId],
      );
      const [, linksRevoked] = await manager.query<[unknown[], number]>(
        'UPDATE dashboard_links SET expires_at = now() WHERE org_id = $1 AND used_at IS NULL AND expires_at > now()',
        [orgId],
      );
      return { sessionsEnded, linksRevoked };
    });
  }
}
