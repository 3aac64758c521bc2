// The worker's configuration: read from the environment once at start, validated, frozen. A bad variable
// stops the start with one line naming it (STYLE.md). Shares the WEBHOOK_* receiver rules and MASTER_KEY
// with the api.
import { join } from 'node:path';

import { developmentSecret } from '@svc/db';
import { positiveInteger, webhookSettingsFromEnv, type WebhookSettings } from '@svc/webhook-sender';

export interface WorkerConfig {
  readonly env: 'development' | 'production' | 'test';
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly masterKey: Buffer;
  readonly logLevel: string;
  readonly webhooks: WebhookSettings;
  /** Waits before retries 1, 2 and 3 (before jitter). */
  readonly retryDelaysMs: readonly [number, number, number];
  /** Each wait is spread uniformly over ±this fraction of itself. */
  readonly retryJitter: number;
  /** Attempts in flight to one endpoint from this process. */
  readonly perEndpointConcurrency: number;
  /** Jobs fetched at once by each of `fetchers`. */
  readonly batchSize: number;
  readonly fetchers: number;
  /** How often the queue is polled besides LISTEN/NOTIFY (due retries, and after an outage). */
  readonly pollIntervalMs: number;
  /** At most one failure e-mail per endpoint per this interval (15 minutes). */
  readonly failureEmailIntervalMs: number;
  /** A first failure e-mail waits this long, so failures that come together share it. */
  readonly failureEmailDelayMs: number;
  /** smtp://user:password@host:port (or smtps://); without it e-mails go to `outboxDir`. */
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  readonly outboxDir: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const MODES = ['development', 'production', 'test'];
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(
  source: Readonly<Record<string, string | undefined>> = process.env,
  root = process.cwd(),
): WorkerConfig {
  const problems: string[] = [];
  const mode = source.NODE_ENV ?? 'development';
  if (!MODES.includes(mode)) problems.push(`NODE_ENV: must be one of ${MODES.join(', ')} (got "${mode}")`);
  const { settings, problems: webhookProblems } = webhookSettingsFromEnv(source, mode);
  problems.push(...webhookProblems);
  const int = (name: string, fallback: number) => positiveInteger(source, name, fallback, problems);

  const delays = (source.WEBHOOK_RETRY_DELAYS_MS ?? '60000,600000,6000000').split(',').map(Number);
  if (delays.length !== 3 || delays.some((d) => !Number.isInteger(d) || d < 0)) {
    problems.push(
      'WEBHOOK_RETRY_DELAYS_MS: must be three whole numbers of milliseconds, e.g. 60000,600000,6000000',
    );
  }
  const jitter = Number(source.WEBHOOK_RETRY_JITTER ?? '0.2');
  if (!(jitter >= 0 && jitter < 1)) problems.push('WEBHOOK_RETRY_JITTER: must be a fraction in [0, 1)');
  const smtpUrl = source.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) {
    problems.push('SMTP_URL: must be smtp://[user:password@]host[:port] or smtps://...');
  }
  const logLevel = source.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info');
  if (!LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL: must be one of ${LEVELS.join(', ')}`);
  const masterKeyText = source.MASTER_KEY;
  if (masterKeyText !== undefined && Buffer.from(masterKeyText, 'base64').length !== 32) {
    problems.push('MASTER_KEY: must be 32 bytes, base64 (the same as the api)');
  }
  if (mode === 'production') {
    if (!source.DATABASE_URL) problems.push('DATABASE_URL: required in production');
    if (!masterKeyText) problems.push('MASTER_KEY: required in production (the same as the api)');
  }
  const config = {
    pollIntervalMs: int('WEBHOOK_POLL_INTERVAL_MS', 2000),
    perEndpointConcurrency: int('WEBHOOK_CONCURRENCY_PER_ENDPOINT', 8),
    batchSize: int('WEBHOOK_BATCH_SIZE', 100),
    fetchers: int('WEBHOOK_FETCHERS', 12),
    failureEmailIntervalMs: int('FAILURE_EMAIL_INTERVAL_MS', 15 * 60 * 1000),
    failureEmailDelayMs: positiveOrZero(source, 'FAILURE_EMAIL_DELAY_MS', 10_000, problems),
  };
  if (config.pollIntervalMs < 500) problems.push('WEBHOOK_POLL_INTERVAL_MS: must be at least 500');
  // A slow endpoint holds at most one fetcher per attempt in flight: more fetchers keep the others going.
  if (config.fetchers <= config.perEndpointConcurrency) {
    problems.push('WEBHOOK_FETCHERS: must be more than WEBHOOK_CONCURRENCY_PER_ENDPOINT');
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);

  const dataDir = source.DATA_DIR ?? join(root, '.data');
  return Object.freeze({
    env: mode as WorkerConfig['env'],
    databaseUrl: source.DATABASE_URL,
    dataDir,
    masterKey: masterKeyText
      ? Buffer.from(masterKeyText, 'base64')
      : Buffer.from(developmentSecret(dataDir, 'master.key'), 'base64url'),
    logLevel,
    webhooks: settings,
    retryDelaysMs: delays as unknown as readonly [number, number, number],
    retryJitter: jitter,
    ...config,
    smtpUrl,
    mailFrom: source.MAIL_FROM ?? 'webhooks@svc.invalid',
    outboxDir: source.OUTBOX_DIR ?? join(dataDir, 'outbox'),
  });
}

function positiveOrZero(
  source: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: number,
  problems: string[],
): number {
  const raw = source[name];
  if (raw === undefined) return fallback;
  if (!/^[0-9]+$/.test(raw))
    problems.push(`${name}: must be a whole number >= 0 (got ${JSON.stringify(raw)})`);
  return Number(raw);
}
