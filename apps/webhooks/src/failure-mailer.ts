// The failure e-mail (docs/api-guide.md#delivery-retries-and-the-24-hour-window, docs/decisions.md,
// "Webhooks: attempts, retries and the window"): to the organisation's support addresses, at most one per
// endpoint per interval, listing the events that failed since the last one. Over SMTP (nodemailer); with no
// SMTP configured it is written to a local outbox and logged.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { QUEUES, bossDb, query, transaction, type WebhookFailureEmailJob } from '@svc/db';
import { createTransport, type Transporter } from 'nodemailer';
import type { Job, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

import type { WorkerConfig } from './config.js';
import type { WorkerMetrics } from './metrics.js';

interface EndpointRow {
  id: string;
  org_id: number;
  url: string;
  last_failure_email_at: Date | null;
  name: string;
  support_emails: string[];
}

interface FailureRow {
  event_id: string;
  entity: string;
  event_type: string | null;
  created_at: Date;
  failed_at: Date;
}

/** Events listed in one e-mail at most; the rest go in the next one. */
const MAX_LISTED = 500;

export class FailureMailer {
  private readonly transport: Transporter | undefined;

  constructor(
    private readonly config: WorkerConfig,
    private readonly dataSource: DataSource,
    private readonly boss: PgBoss,
    private readonly logger: Logger,
    private readonly metrics: WorkerMetrics,
  ) {
    this.transport = config.smtpUrl ? createTransport(config.smtpUrl) : undefined;
  }

  /** The pg-boss handler: one job per endpoint with failures to report. */
  readonly handle = async (jobs: Job<WebhookFailureEmailJob>[]): Promise<void> => {
    for (const job of jobs) await this.report(job.data.endpointId);
  };

  close(): void {
    this.transport?.close();
  }

  private async report(endpointId: string): Promise<void> {
    await transaction(this.dataSource, async (manager) => {
      const [endpoint] = await query<EndpointRow>(
        manager,
        `SELECT w.id, w.org_id, w.url, w.last_failure_email_at, o.name, o.support_emails
           FROM webhook_endpoints w JOIN organisations o ON o.id = w.org_id
          WHERE w.id = $1 FOR UPDATE OF w`,
        [endpointId],
      );
      if (!endpoint) return;
      const allowedAt = (endpoint.last_failure_email_at?.getTime() ?? 0) + this.config.failureEmailIntervalMs;
      if (allowedAt > Date.now()) {
        // Too soon after the last e-mail: come back when one is allowed.
        await this.boss.send(
          QUEUES.webhookFailureEmail,
          { endpointId },
          { singletonKey: endpointId, startAfter: new Date(allowedAt), db: bossDb(manager) },
        );
        return;
      }
      const failures = await query<FailureRow>(
        manager,
        `SELECT f.event_id, e.entity, e.event_type, e.created_at, f.failed_at
           FROM webhook_failures f JOIN events e ON e.id = f.event_id
          WHERE f.org_id = $1 AND f.emailed_at IS NULL
          ORDER BY f.failed_at, f.event_id LIMIT ${MAX_LISTED} FOR UPDATE OF f`,
        [endpoint.org_id],
      );
      if (failures.length > 0) {
        await this.send(endpoint, failures);
        await query(
          manager,
          'UPDATE webhook_failures SET emailed_at = now() WHERE event_id = ANY($1::uuid[])',
          [failures.map((f) => f.event_id)],
        );
        await query(manager, 'UPDATE webhook_endpoints SET last_failure_email_at = now() WHERE id = $1', [
          endpointId,
        ]);
        if (failures.length === MAX_LISTED) {
          await this.boss.send(
            QUEUES.webhookFailureEmail,
            { endpointId },
            {
              singletonKey: endpointId,
              startAfter: new Date(Date.now() + this.config.failureEmailIntervalMs),
              db: bossDb(manager),
            },
          );
        }
      }
    });
  }

  private async send(endpoint: EndpointRow, failures: FailureRow[]): Promise<void> {
    const lines = failures.map(
      (f) =>
        `- ${f.event_id}  ${f.entity}${f.event_type ? ` ${f.event_type}` : ''}  created ${f.created_at.toISOString()}  failed ${f.failed_at.toISOString()}`,
    );
    const message = {
      from: this.config.mailFrom,
      to: endpoint.support_emails,
      subject: `Webhook delivery failed: ${failures.length} event${failures.length === 1 ? '' : 's'} for ${endpoint.name}`,
      text: [
        `Hello ${endpoint.name},`,
        '',
        `We could not deliver ${failures.length === 1 ? 'this event' : 'these events'} to your webhook ${endpoint.url}`,
        'after every retry. Each attempt and its answer are in the delivery log',
        '(GET /api/v1/webhooks/deliveries/); an event can be redelivered within 24 hours of its creation',
        '(POST /api/v1/webhooks/events/{eventId}/redeliver/).',
        '',
        ...lines,
        '',
      ].join('\n'),
    };
    const log = { orgId: endpoint.org_id, events: failures.length, to: endpoint.support_emails };
    if (this.transport && endpoint.support_emails.length > 0) {
      await this.transport.sendMail(message);
      this.metrics.emailSent('smtp');
      this.logger.info(log, 'failure e-mail sent');
      return;
    }
    // No SMTP (or no address to send to): the e-mail goes to the outbox, so nothing is silently lost.
    const outbox = createTransport({ streamTransport: true, buffer: true });
    const built = (await outbox.sendMail({
      ...message,
      to: message.to.length > 0 ? message.to : 'nobody@invalid',
    })) as {
      message: Buffer;
    };
    mkdirSync(this.config.outboxDir, { recursive: true });
    const file = join(
      this.config.outboxDir,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-org${endpoint.org_id}.eml`,
    );
    writeFileSync(file, built.message);
    this.metrics.emailSent('outbox');
    this.logger.warn({ ...log, file }, 'no SMTP configured: failure e-mail written to the outbox');
  }
}
