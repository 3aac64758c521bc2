// Test support: the worker on its own fresh database, with helpers that create organisations, their
// endpoints and events the way the api does (event row and delivery job in one transaction), and a real
// SMTP server (npm smtp-server) that keeps what it receives.
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

import { EVENTS_CHANNEL, encryptSecret, openDatabase, queueRedeliveries, startBoss } from '@svc/db';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';
import type { WebhookSender } from '@svc/webhook-sender';
import type { PgBoss } from 'pg-boss';
import { pino } from 'pino';
import { SMTPServer } from 'smtp-server';

import { loadConfig, type WorkerConfig } from '../../src/config.js';
import { startWorker, type RunningWorker } from '../../src/worker.js';

export interface ReceivedMail {
  readonly to: string[];
  readonly text: string;
}

export class SmtpCatcher {
  private constructor(
    private readonly server: SMTPServer,
    readonly mails: ReceivedMail[],
  ) {}

  static async start(): Promise<SmtpCatcher> {
    const mails: ReceivedMail[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            // Quoted-printable soft line breaks would split the text the tests look for.
            text: Buffer.concat(chunks)
              .toString('utf8')
              .replace(/=\r?\n/g, ''),
          });
          callback();
        });
      },
    });
    const catcher = new SmtpCatcher(server, mails);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return catcher;
  }

  get url(): string {
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  mailsTo(address: string): ReceivedMail[] {
    return this.mails.filter((mail) => mail.to.includes(address));
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const TEST_MASTER_KEY = randomBytes(32).toString('base64');

/** The worker's configuration in tests, in process and in the processes of processes.e2e.spec.ts. */
export const TEST_ENV: Readonly<Record<string, string>> = {
  NODE_ENV: 'test',
  MASTER_KEY: TEST_MASTER_KEY,
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
  WEBHOOK_RETRY_DELAYS_MS: '50,100,150',
  WEBHOOK_POLL_INTERVAL_MS: '500',
  FAILURE_EMAIL_DELAY_MS: '300',
  LOG_LEVEL: 'silent',
  DATA_DIR: '/nonexistent',
  // Any free port: processes of several tests run at once (WorkerProcess reads the one bound from the log).
  WORKER_PORT: '0',
};

export class WorkerFixture {
  private constructor(
    readonly db: TestDatabase,
    readonly boss: PgBoss,
    readonly config: WorkerConfig,
    public worker: RunningWorker | undefined,
  ) {}

  /**
   * A database and a started worker; `env` overrides the test configuration. With `url`, that database
   * (migrated here) instead of a fresh one on the run's server; `close` leaves it in place.
   */
  static async start(
    env: Record<string, string> = {},
    options: { sender?: WebhookSender; worker?: boolean; url?: string } = {},
  ): Promise<WorkerFixture> {
    const db = options.url ? await existingDatabase(options.url) : await createTestDatabase();
    const config = loadConfig({ ...TEST_ENV, ...env });
    const boss = await startBoss({ url: db.url, max: 8, listen: false }, () => undefined);
    const logger = pino({ level: config.logLevel });
    const worker =
      options.worker === false
        ? undefined
        : await startWorker({
            config,
            dataSource: db.dataSource,
            boss,
            logger,
            ...(options.sender ? { sender: options.sender } : {}),
          });
    return new WorkerFixture(db, boss, config, worker);
  }

  async close(): Promise<void> {
    await this.worker?.stop();
    await this.boss.stop({ graceful: false });
    await this.db.close();
  }

  rows<T = Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<T[]> {
    return this.db.dataSource.query<T[]>(sql, parameters);
  }

  /** An ENTERPRISE organisation with an ACTIVE endpoint at `url` signing with `secret`. */
  async createOrg(url: string, secret: string, supportEmails = [`support-${randomUUID()}@example.com`]) {
    const [org] = await this.rows<{ id: number }>(
      `INSERT INTO organisations (name, kyc_domain, plan, support_emails, policy)
       VALUES ($1, 'localhost', 'ENTERPRISE', $2, '{}') RETURNING id`,
      [`org-${randomBytes(3).toString('hex')}`, supportEmails],
    );
    const orgId = org!.id;
    if (url) {
      await this.rows(
        `INSERT INTO webhook_endpoints (org_id, url, secret_ciphertext, status) VALUES ($1, $2, $3, 'ACTIVE')`,
        [orgId, url, encryptSecret(this.config.masterKey, secret)],
      );
    }
    return { orgId, supportEmail: supportEmails[0] ?? '' };
  }

  /** One asked-for attempt of the event (a redelivery, or a recovery's), as the api queues it. */
  async redeliver(eventId: string, recoveryId: string | null = null): Promise<void> {
    await queueRedeliveries(this.db.dataSource, [eventId], recoveryId);
  }

  /**
   * An event committed with its NOTIFY, as the api's OutboxRepository writes it: PENDING and due, so the
   * worker's queue (the events table) delivers it.
   */
  async enqueueEvent(
    orgId: number,
    options: {
      entity?: string;
      eventType?: string;
      data?: object;
      /** The data as stored json text, when `data` cannot say it (numbers past a double). */
      dataText?: string;
      createdAt?: Date;
    } = {},
  ): Promise<string> {
    const id = randomUUID();
    await this.db.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO events (id, org_id, entity, event_type, data, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, COALESCE($6, now()), COALESCE($6, now()))`,
        [
          id,
          orgId,
          options.entity ?? 'Users',
          options.eventType ?? null,
          options.dataText ??
            JSON.stringify(options.data ?? { orgUserId: 'u-1', orgId, kyc: false, tnc: true }),
          options.createdAt ?? null,
        ],
      );
      await manager.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, String(orgId)]);
    });
    return id;
  }

  async eventStatus(id: string): Promise<{ status: string; num_retries: number } | undefined> {
    const [row] = await this.rows<{ status: string; num_retries: number }>(
      'SELECT status, num_retries FROM events WHERE id = $1',
      [id],
    );
    return row;
  }

  /** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
  async until<T>(check: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
      await sleep(50);
    }
  }

  /** Waits until the event has the status. */
  waitForStatus(id: string, status: string, timeoutMs?: number): Promise<true> {
    return this.until(async () => (await this.eventStatus(id))?.status === status || undefined, timeoutMs);
  }
}

async function existingDatabase(url: string): Promise<TestDatabase> {
  const dataSource = await openDatabase({ url, poolSize: 5 });
  return { url, dataSource, close: () => dataSource.destroy() };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
