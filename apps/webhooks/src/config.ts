// The worker's configuration: read from the environment once at start, validated, frozen. A bad variable
// stops the start with one line naming it (docs/decisions.md, "Operations: configuration errors"). The
// variables it shares with the api (MASTER_KEY, WEBHOOK_*, ...) and the loader are @svc/runtime's.
import { join } from 'node:path';

import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import {
  loadServiceEnvironment,
  serviceSettings,
  ServiceEnvironment,
  type EnvSource,
  type ServiceSettings,
} from '@svc/runtime';

export { ConfigError } from '@svc/runtime';

class WorkerEnvironment extends ServiceEnvironment {
  /** The port of /healthz, /readyz and /metrics (docs/operations.md). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  WORKER_PORT?: number;

  @IsOptional()
  @IsString()
  WORKER_HOST?: string;

  @IsOptional()
  @Matches(/^[0-9]+,[0-9]+,[0-9]+$/, {
    message: 'must be three whole numbers of milliseconds, e.g. 60000,600000,6000000',
  })
  WEBHOOK_RETRY_DELAYS_MS?: string;

  @IsOptional()
  @Matches(/^0(\.[0-9]+)?$/, { message: 'must be a fraction in [0, 1)' })
  WEBHOOK_RETRY_JITTER?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(500)
  WEBHOOK_POLL_INTERVAL_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  WEBHOOK_CONCURRENCY_PER_ENDPOINT?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  WEBHOOK_BATCH_SIZE?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  WEBHOOK_FETCHERS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  WEBHOOK_RETRY_AFTER_MAX_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  FAILURE_EMAIL_INTERVAL_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  FAILURE_EMAIL_DELAY_MS?: number;

  /** smtp://user:password@host:port (or smtps://); without it e-mails go to OUTBOX_DIR. */
  @IsOptional()
  @Matches(/^smtps?:\/\//, { message: 'must be smtp://[user:password@]host[:port] or smtps://...' })
  SMTP_URL?: string;

  @IsOptional()
  @IsString()
  MAIL_FROM?: string;

  @IsOptional()
  @IsString()
  OUTBOX_DIR?: string;

  /** Days an event is kept (the event log and stream), then pruned; longer than the delivery window. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(2)
  @Max(3650)
  EVENT_RETENTION_DAYS?: number;

  /** Days a price tick (the price history) is kept, then pruned. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3650)
  PRICE_TICK_RETENTION_DAYS?: number;
}

export interface WorkerConfig extends ServiceSettings {
  /** Where /healthz, /readyz and /metrics listen (0: any free port). */
  readonly port: number;
  readonly host: string;
  /** Waits before retries 1, 2 and 3 (before jitter). */
  readonly retryDelaysMs: readonly [number, number, number];
  /** Each wait is spread uniformly over ±this fraction of itself. */
  readonly retryJitter: number;
  /**
   * The longest pause a receiver's Retry-After (429 or 503) gets; a longer one is cut to this. Default the
   * delivery window: no event could wait longer.
   */
  readonly retryAfterMaxMs: number;
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
  /** Events older than this are deleted, with their attempts (the event log's retention). */
  readonly eventRetentionMs: number;
  /** Price ticks older than this are deleted (the price history's retention). */
  readonly priceTickRetentionMs: number;
}

const DEFAULT_FETCHERS = 12;
/** Beside the api's 3000, so `npm start` runs both with no setting. */
const DEFAULT_PORT = 3001;
const DEFAULT_PER_ENDPOINT = 8;

/** Validates `source` (default process.env); throws ConfigError with one line per bad variable. */
export function loadConfig(source: EnvSource = process.env, root = process.cwd()): WorkerConfig {
  const env = loadServiceEnvironment(WorkerEnvironment, source, (env) =>
    // A slow endpoint holds at most one fetcher per attempt in flight: more fetchers keep the others going.
    (env.WEBHOOK_FETCHERS ?? DEFAULT_FETCHERS) <=
    (env.WEBHOOK_CONCURRENCY_PER_ENDPOINT ?? DEFAULT_PER_ENDPOINT)
      ? ['WEBHOOK_FETCHERS: must be more than WEBHOOK_CONCURRENCY_PER_ENDPOINT']
      : [],
  );
  const settings = serviceSettings(env, root);
  const delays = (env.WEBHOOK_RETRY_DELAYS_MS ?? '60000,600000,6000000').split(',').map(Number);
  return Object.freeze({
    ...settings,
    port: env.WORKER_PORT ?? DEFAULT_PORT,
    host: env.WORKER_HOST ?? '127.0.0.1',
    retryDelaysMs: Object.freeze(delays) as unknown as readonly [number, number, number],
    retryJitter: Number(env.WEBHOOK_RETRY_JITTER ?? '0.2'),
    retryAfterMaxMs: env.WEBHOOK_RETRY_AFTER_MAX_MS ?? settings.webhooks.windowMs,
    pollIntervalMs: env.WEBHOOK_POLL_INTERVAL_MS ?? 2000,
    perEndpointConcurrency: env.WEBHOOK_CONCURRENCY_PER_ENDPOINT ?? DEFAULT_PER_ENDPOINT,
    batchSize: env.WEBHOOK_BATCH_SIZE ?? 100,
    fetchers: env.WEBHOOK_FETCHERS ?? DEFAULT_FETCHERS,
    failureEmailIntervalMs: env.FAILURE_EMAIL_INTERVAL_MS ?? 15 * 60 * 1000,
    failureEmailDelayMs: env.FAILURE_EMAIL_DELAY_MS ?? 10_000,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'webhooks@svc.invalid',
    outboxDir: env.OUTBOX_DIR ?? join(settings.dataDir, 'outbox'),
    eventRetentionMs: (env.EVENT_RETENTION_DAYS ?? 30) * 86_400_000,
    priceTickRetentionMs: (env.PRICE_TICK_RETENTION_DAYS ?? 30) * 86_400_000,
  });
}
