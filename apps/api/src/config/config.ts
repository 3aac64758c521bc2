// The service's configuration: read from the environment once at start, validated, then frozen. A bad
// variable stops the start with one line naming it and the rule (docs/decisions.md, "Operations"). The
// variables the worker reads too, and the loader, are @svc/runtime's.
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import {
  developmentSecret,
  loadServiceEnvironment,
  serviceSettings,
  ServiceEnvironment,
  type ServiceSettings,
} from '@svc/runtime';

export { ConfigError } from '@svc/runtime';

class Environment extends ServiceEnvironment {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

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

  /** Milliseconds between two heartbeat comments on an open event stream. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(300000)
  EVENT_STREAM_HEARTBEAT_MS?: number;

  /** Event streams an organisation may hold open at once, over every api instance. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  EVENT_STREAMS_PER_ORG?: number;
}

export interface AppConfig extends ServiceSettings {
  readonly port: number;
  readonly host: string;
  readonly adminToken: string;
  readonly tokenTtlSeconds: number;
  readonly signatureWindow: { readonly maxAgeSeconds: number; readonly maxAheadSeconds: number };
  readonly bodyLimitBytes: number;
  readonly tokenRateLimitPerMinute: number;
  readonly kycExpiryDays: number;
  readonly kycExpirySweepSeconds: number;
  readonly eventStreams: { readonly heartbeatMs: number; readonly perOrg: number };
}

/** Validates `source` (default process.env); throws ConfigError with one line per bad variable. */
export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  root = process.cwd(),
): AppConfig {
  const env = loadServiceEnvironment(Environment, source, (env, mode) =>
    mode === 'production' && !env.ADMIN_TOKEN
      ? ['ADMIN_TOKEN: required in production (at least 32 characters)']
      : [],
  );
  const settings = serviceSettings(env, root);
  return Object.freeze({
    ...settings,
    port: env.PORT ?? 3000,
    host: env.HOST ?? '127.0.0.1',
    adminToken: env.ADMIN_TOKEN ?? developmentSecret(settings.dataDir, 'admin-token', 32),
    tokenTtlSeconds: env.TOKEN_TTL_SECONDS ?? 3600,
    signatureWindow: Object.freeze({
      maxAgeSeconds: env.SIGNATURE_MAX_AGE_SECONDS ?? 300,
      maxAheadSeconds: env.SIGNATURE_MAX_AHEAD_SECONDS ?? 3900,
    }),
    bodyLimitBytes: env.BODY_LIMIT_BYTES ?? 1024 * 1024,
    tokenRateLimitPerMinute: env.TOKEN_RATE_LIMIT_PER_MINUTE ?? 30,
    kycExpiryDays: env.KYC_EXPIRY_DAYS ?? 30,
    kycExpirySweepSeconds: env.KYC_EXPIRY_SWEEP_SECONDS ?? (settings.env === 'test' ? 0 : 60),
    eventStreams: Object.freeze({
      heartbeatMs: env.EVENT_STREAM_HEARTBEAT_MS ?? 15_000,
      perOrg: env.EVENT_STREAMS_PER_ORG ?? 10,
    }),
  });
}

export const APP_CONFIG = Symbol('APP_CONFIG');
