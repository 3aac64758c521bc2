// The dashboard's own reads, which no api route makes: the webhook's recent health and a user's KYC
// history. Plain SQL, each on an index that starts with org_id (events_org_created,
// webhook_attempts_org_id, kyc_reviews_user).
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Counts over the last `hours`: events by status, attempts by outcome, and the latest of each outcome. */
export interface WebhookHealth {
  readonly hours: number;
  readonly events: Readonly<Record<string, number>>;
  readonly attempts: { readonly delivered: number; readonly failed: number };
  readonly lastDeliveredAt: Date | null;
  readonly lastFailedAt: Date | null;
}

export interface KycHistoryItem {
  readonly eventId: string;
  readonly eventType: string;
  readonly at: Date;
  /** The operator's text on a decision (reason, request), if any. */
  readonly message: string | null;
}

@Injectable()
export class DashboardRepository {
  constructor(private readonly dataSource: DataSource) {}

  async webhookHealth(orgId: number, hours = 24): Promise<WebhookHealth> {
    const since = new Date(Date.now() - hours * 3600_000);
    const events = await this.dataSource.query<{ status: string; n: number }[]>(
      'SELECT status, count(*)::int AS n FROM events WHERE org_id = $1 AND created_at > $2 GROUP BY status',
      [orgId, since],
    );
    const [attempts] = await this.dataSource.query<
      { delivered: number; failed: number; last_delivered: Date | null; last_failed: Date | null }[]
    >(
      `SELECT count(*) FILTER (WHERE delivered)::int AS delivered,
              count(*) FILTER (WHERE NOT delivered)::int AS failed,
              max(attempted_at) FILTER (WHERE delivered) AS last_delivered,
              max(attempted_at) FILTER (WHERE NOT delivered) AS last_failed
         FROM webhook_attempts WHERE org_id = $1 AND attempted_at > $2`,
      [orgId, since],
    );
    return {
      hours,
      events: Object.fromEntries(events.map((row) => [row.status, row.n])),
      attempts: { delivered: attempts?.delivered ?? 0, failed: attempts?.failed ?? 0 },
      lastDeliveredAt: attempts?.last_delivered ?? null,
      lastFailedAt: attempts?.last_failed ?? null,
    };
  }

  /** The user's KYC events, newest first, with the operator's text on decisions. */
  async kycHistory(orgId: number, orgUserId: string, limit = 100): Promise<KycHistoryItem[]> {
    const rows = await this.dataSource.query<
      { id: string; event_type: string; created_at: Date; message: string | null }[]
    >(
      `SELECT e.id, e.event_type, e.created_at, r.message
         FROM events e LEFT JOIN kyc_reviews r ON r.event_id = e.id
        WHERE e.org_id = $1 AND e.entity = 'Users' AND e.event_type IS NOT NULL
          AND e.data->>'orgUserId' = $2
        ORDER BY e.created_at DESC, e.id DESC
        LIMIT $3`,
      [orgId, orgUserId, limit],
    );
    return rows.map((row) => ({
      eventId: row.id,
      eventType: row.event_type,
      at: row.created_at,
      message: row.message,
    }));
  }
}
