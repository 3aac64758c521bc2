// Every query of dashboard_links and dashboard_sessions. Tokens are looked up by their SHA-256 only.
// Style: TypeORM for both tables (finders, and its query builder where a condition is raw SQL); none of it is
// on a hot path.
import { Injectable } from '@nestjs/common';
import { DashboardLink, DashboardSession, transaction } from '@svc/db';
import { DataSource, type EntityManager, IsNull, Raw } from 'typeorm';

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
    const claimed = await manager
      .createQueryBuilder()
      .update(DashboardLink)
      .set({ usedAt: () => 'now()' })
      .where('token_hash = :tokenHash AND used_at IS NULL AND expires_at > now()', { tokenHash })
      .andWhere(CREATOR_LIVE('dashboard_links'))
      .returning('id')
      .execute();
    const id = (claimed.raw as { id: string }[])[0]?.id;
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
    await this.dataSource.manager.update(
      DashboardSession,
      { id, endedAt: IsNull() },
      { endedAt: () => 'now()' },
    );
  }

  /** Ends the organisation's live sessions and voids its unused links; answers how many of each. */
  async endAll(orgId: number): Promise<{ sessionsEnded: number; linksRevoked: number }> {
    return transaction(this.dataSource, async (manager) => {
      const live = Raw((expiresAt) => `${expiresAt} > now()`);
      const sessions = await manager.update(
        DashboardSession,
        { orgId, endedAt: IsNull(), expiresAt: live },
        { endedAt: () => 'now()' },
      );
      const links = await manager.update(
        DashboardLink,
        { orgId, usedAt: IsNull(), expiresAt: live },
        { expiresAt: () => 'now()' },
      );
      return { sessionsEnded: sessions.affected ?? 0, linksRevoked: links.affected ?? 0 };
    });
  }
}
