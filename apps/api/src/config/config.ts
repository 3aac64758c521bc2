// The service's configuration: read from the environment once at start, validated, then frozen. A bad
// variable stops the start with one line naming it and the rule (STYLE.md, DESIGN section 10).
import { join } from 'node:path';

import { plainToInstance, Type } from 'class-transformer';
import {
  IsBase64,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Max,
  Min,
  MinLength,
  validateSync,
  type ValidationError,
} from 'class-validator';
import { developmentSecret } from '@svc/db';
import { webhookSettingsFromEnv, type WebhookSettings } from '@svc/webhook-sender';

class Environment {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  /** An external PostgreSQL; without it an embedded one runs in DATA_DIR/postgres. */
  @IsOptional()
  @IsUrl({ protocols: ['postgres', 'postgresql'], require_tld: false, require_protocol: true })
  DATABASE_URL?: string;

  @IsOptional()
  @IsString()
  DATA_DIR?: string;

  /** 32 bytes, base64: encrypts API secrets at rest. Required in production. */
  @IsOptional()
  @IsBase64()
  @Length(44, 44)
  MASTER_KEY?: string;

  /** Bearer token of the operator surface. Required in production. */
  @IsOptional()
  @IsString()
  @MinLength(32)
  ADMIN_TOKEN?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(60)
  @Max(86400)
  TOKEN_TTL_SECONDS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  SIGNATURE_MAX_AGE_SECONDS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  SIGNATURE_MAX_AHEAD_SECONDS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1024)
  BODY_LIMIT_BYTES?: number;

  /** Token requests allowed per client and per address, per minute. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  TOKEN_RATE_LIMIT_PER_MINUTE?: number;

  /** Days a KYC process may wait at one step (for the org or an operator) before it expires. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3650)
  KYC_EXPIRY_DAYS?: number;

  /** Seconds between two KYC expiry sweeps of this instance; 0 turns them off (the default in tests). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(86400)
  KYC_EXPIRY_SWEEP_SECONDS?: number;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;
}

export interface AppConfig {
  readonly env: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly masterKey: Buffer;
  readonly adminToken: string;
  readonly tokenTtlSeconds: number;
  readonly signatureWindow: { readonly maxAgeSeconds: number; readonly maxAheadSeconds: number };
  readonly bodyLimitBytes: number;
  readonly tokenRateLimitPerMinute: number;
  readonly kycExpiryDays: number;
  readonly kycExpirySweepSeconds: number;
  readonly logLevel: string;
  /** Where webhooks may go and how long an event may be delivered (WEBHOOK_* variables). */
  readonly webhooks: WebhookSettings;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Validates `source` (default process.env); throws ConfigError with one line per bad variable. */
export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  root = process.cwd(),
): AppConfig {
  const env = plainToInstance(Environment, source, { enableImplicitConversion: false });
  const errors = validateSync(env, { whitelist: false });
  const problems = errors.map((error) => problemLine(error, source[error.property]));
  const mode = (env.NODE_ENV ?? 'development') as AppConfig['env'];
  const webhooks = webhookSettingsFromEnv(source, mode);
  problems.push(...webhooks.problems);
  if (mode === 'production') {
    if (!env.DATABASE_URL)
      problems.push('DATABASE_URL: required in production (the embedded PostgreSQL is for development)');
    if (!env.MASTER_KEY) problems.push('MASTER_KEY: required in production (32 random bytes, base64)');
    if (!env.ADMIN_TOKEN) problems.push('ADMIN_TOKEN: required in production (at least 32 characters)');
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  const dataDir = env.DATA_DIR ?? join(root, '.data');
  return Object.freeze({
    env: mode,
    port: env.PORT ?? 3000,
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL,
    dataDir,
    masterKey: env.MASTER_KEY
      ? Buffer.from(env.MASTER_KEY, 'base64')
      : Buffer.from(developmentSecret(dataDir, 'master.key', 32), 'base64url'),
    adminToken: env.ADMIN_TOKEN ?? developmentSecret(dataDir, 'admin-token', 32),
    tokenTtlSeconds: env.TOKEN_TTL_SECONDS ?? 3600,
    signatureWindow: Object.freeze({
      maxAgeSeconds: env.SIGNATURE_MAX_AGE_SECONDS ?? 300,
      maxAheadSeconds: env.SIGNATURE_MAX_AHEAD_SECONDS ?? 3900,
    }),
    bodyLimitBytes: env.BODY_LIMIT_BYTES ?? 1024 * 1024,
    tokenRateLimitPerMinute: env.TOKEN_RATE_LIMIT_PER_MINUTE ?? 30,
    kycExpiryDays: env.KYC_EXPIRY_DAYS ?? 30,
    kycExpirySweepSeconds: env.KYC_EXPIRY_SWEEP_SECONDS ?? (mode === 'test' ? 0 : 60),
    logLevel: env.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
    webhooks: webhooks.settings,
  });
}

/** Rules on the kind of value: when one fails, range rules (checked on NaN for "abc") only add noise. */
const KIND_RULES = new Set(['isInt', 'isIn', 'isUrl', 'isBase64', 'isString']);
/** Never echoed back: a near miss would print the secret to the terminal and the logs. */
const SECRET_VARIABLES = new Set(['MASTER_KEY', 'ADMIN_TOKEN']);

/** `NAME: the rule (got the value as set)`, e.g. `PORT: must be an integer number (got "abc")`. */
function problemLine(error: ValidationError, raw: string | undefined): string {
  const failed = Object.entries(error.constraints ?? {});
  const kind = failed.filter(([rule]) => KIND_RULES.has(rule));
  const rules = (kind.length > 0 ? kind : failed).map(([, message]) =>
    message.startsWith(`${error.property} `) ? message.slice(error.property.length + 1) : message,
  );
  let shown = JSON.stringify(raw);
  if (SECRET_VARIABLES.has(error.property)) shown = `${raw?.length ?? 0} characters, not shown`;
  // A URL's password is a secret too.
  else if (raw && error.property === 'DATABASE_URL')
    shown = JSON.stringify(raw.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@'));
  return `${error.property}: ${rules.join('; ')} (got ${shown})`;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
