// The variables both services read, with one rule each (docs/decisions.md, "Layout: the runtime packages" and
// "Webhooks: where they may go"): each service's env class extends ServiceEnvironment with its own.
import { join } from 'node:path';

import {
  DELIVERY_WINDOW_MS,
  DEVELOPMENT_POLICY,
  networkList,
  NetworkListError,
  STRICT_POLICY,
  type ReceiverPolicy,
} from '@svc/webhook-sender';
import { Type } from 'class-transformer';
import {
  IsBase64,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Min,
  MinLength,
  ValidateBy,
} from 'class-validator';

import { developmentSecret } from './development-secret.js';
import { ConfigError, readEnvironment, type EnvSource } from './env.js';

export const MODES = ['development', 'production', 'test'] as const;
export type Mode = (typeof MODES)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A comma-separated list of IP networks (`10.0.0.0/8`, `::1/128`) or single addresses; may be empty. */
export function IsNetworkList(): PropertyDecorator {
  return ValidateBy({
    name: 'isNetworkList',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && networkProblem(value) === undefined,
      defaultMessage: (args) => networkProblem(String(args?.value)) ?? '',
    },
  });
}

export class ServiceEnvironment {
  @IsOptional()
  @IsIn(MODES)
  NODE_ENV?: string;

  /** An external PostgreSQL; without it the api runs an embedded one in DATA_DIR/postgres. */
  @IsOptional()
  @IsUrl({ protocols: ['postgres', 'postgresql'], require_tld: false, require_protocol: true })
  DATABASE_URL?: string;

  @IsOptional()
  @IsString()
  DATA_DIR?: string;

  /** 32 bytes, base64: encrypts API and webhook secrets at rest. Required in production. */
  @IsOptional()
  @IsBase64()
  @Length(44, 44)
  @ValidateBy({
    name: 'is32Bytes',
    validator: {
      // Other lengths are the rules above's to report.
      validate: (value: unknown) =>
        typeof value !== 'string' || value.length !== 44 || Buffer.from(value, 'base64').length === 32,
      defaultMessage: () => 'must decode to 32 bytes',
    },
  })
  MASTER_KEY?: string;

  @IsOptional()
  @IsIn(LOG_LEVELS)
  LOG_LEVEL?: string;

  /** Plain http receivers; unset, true in development only. */
  @IsOptional()
  @IsIn(['true', 'false'])
  WEBHOOK_ALLOW_HTTP?: string;

  /** Comma-separated CIDR accepted although not public (may be empty); unset, loopback in development. */
  @IsOptional()
  @IsNetworkList()
  WEBHOOK_ALLOWED_NETWORKS?: string;

  /** No attempt, redelivery included, after an event's createdAt plus this. Default one day. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  WEBHOOK_WINDOW_MS?: number;

  /** When set, /metrics answers only `Authorization: Bearer <METRICS_TOKEN>` (docs/operations.md). */
  @IsOptional()
  @IsString()
  @MinLength(32)
  METRICS_TOKEN?: string;
}

/** What the api and the worker both need to know about webhooks. */
export interface WebhookSettings {
  readonly receivers: ReceiverPolicy;
  /** No attempt, redelivery included, after an event's createdAt plus this. */
  readonly windowMs: number;
}

/** The settings every service has, from a {@link ServiceEnvironment}. */
export interface ServiceSettings {
  readonly env: Mode;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly masterKey: Buffer;
  readonly logLevel: string;
  readonly webhooks: WebhookSettings;
  /** The bearer token /metrics asks for; undefined: /metrics is open (keep it off the public network). */
  readonly metricsToken: string | undefined;
}

/**
 * Reads `source` through `Env`; `checks` adds the service's own cross-variable rules. Throws ConfigError
 * with every problem before anything is written (development secrets included).
 */
export function loadServiceEnvironment<Env extends ServiceEnvironment>(
  Env: new () => Env,
  source: EnvSource,
  checks: (env: Env, mode: Mode) => string[] = () => [],
): Env {
  const { env, problems } = readEnvironment(Env, source);
  const mode = modeOf(env);
  if (mode === 'production') {
    if (!env.DATABASE_URL)
      problems.push('DATABASE_URL: required in production (the embedded PostgreSQL is for development)');
    if (!env.MASTER_KEY) problems.push('MASTER_KEY: required in production (32 random bytes, base64)');
  }
  problems.push(...checks(env, mode));
  if (problems.length > 0) throw new ConfigError(problems);
  return env;
}

/**
 * The shared settings of a valid environment. Outside production a missing MASTER_KEY is generated once
 * into DATA_DIR as base64, so it would pass as MASTER_KEY in production too.
 */
export function serviceSettings(env: ServiceEnvironment, root: string): ServiceSettings {
  const mode = modeOf(env);
  const dataDir = env.DATA_DIR ?? join(root, '.data');
  const defaults = mode === 'development' ? DEVELOPMENT_POLICY : STRICT_POLICY;
  const networks = env.WEBHOOK_ALLOWED_NETWORKS;
  return {
    env: mode,
    databaseUrl: env.DATABASE_URL,
    dataDir,
    // 'base64' decoding also reads the base64url keys written by earlier versions, to the same bytes.
    masterKey: Buffer.from(
      env.MASTER_KEY ?? developmentSecret(dataDir, 'master.key', 32, 'base64'),
      'base64',
    ),
    logLevel: env.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
    webhooks: Object.freeze({
      receivers: Object.freeze({
        allowHttp:
          env.WEBHOOK_ALLOW_HTTP === undefined ? defaults.allowHttp : env.WEBHOOK_ALLOW_HTTP === 'true',
        allowedNetworks: Object.freeze(
          networks === undefined ? [...defaults.allowedNetworks] : splitList(networks),
        ),
      }),
      windowMs: env.WEBHOOK_WINDOW_MS ?? DELIVERY_WINDOW_MS,
    }),
    metricsToken: env.METRICS_TOKEN,
  };
}

function modeOf(env: ServiceEnvironment): Mode {
  return (env.NODE_ENV ?? 'development') as Mode;
}

/** The items of a comma-separated variable, trimmed, without empty ones. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Why `text` is not a list of networks, or undefined when it is. */
function networkProblem(text: string): string | undefined {
  try {
    networkList(splitList(text));
    return undefined;
  } catch (error) {
    if (error instanceof NetworkListError) return error.message;
    throw error;
  }
}
