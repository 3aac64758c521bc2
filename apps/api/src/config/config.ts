// The service's configuration: read from the environment once at start, validated, then frozen. A bad
// variable stops the start with one line naming it and the rule (docs/decisions.md, "Operations:
// configuration errors"). The variables the worker reads too, and the loader, are @svc/runtime's.
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';
import {
  IsNetworkList,
  loadServiceEnvironment,
  serviceSettings,
  splitList,
  type ServiceSettings,
} from '@svc/runtime';

import {
  MarketDataEnvironment,
  marketDataProblems,
  marketDataSettings,
  type MarketDataSettings,
} from './market-data.config.js';

export { ConfigError } from '@svc/runtime';

class Environment extends MarketDataEnvironment {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  /** Bootstraps the first ADMIN operator, and nothing else (docs/operators.md). */
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

  /**
   * Milliseconds between two sweeps of resting orders (expiry, stops, fills) by this instance; 0 turns them
   * off (the default in tests, which sweep themselves).
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  ORDER_SWEEP_MS?: number;

  /** Where people reach the api (scheme, host, port); every link the api hands out starts with it. */
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  PUBLIC_URL?: string;

  /**
   * The reverse proxies whose X-Forwarded-For, -Host and -Proto are believed: comma-separated addresses or
   * CIDR networks. Unset or empty: none, and the client's address is the connection's.
   */
  @IsOptional()
  @IsNetworkList()
  TRUST_PROXY?: string;

  /** Seconds a dashboard sign-in link may wait to be opened. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(30)
  @Max(3600)
  DASHBOARD_LINK_TTL_SECONDS?: number;

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

  /** Minutes a console session lives without a request. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1440)
  OPERATOR_SESSION_IDLE_MINUTES?: number;

  /** Hours a console session lives at most, however active. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(168)
  OPERATOR_SESSION_MAX_HOURS?: number;

  /** Minutes a second factor counts for sensitive actions (step-up). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(60)
  OPERATOR_STEP_UP_MINUTES?: number;

  /** The longest lifetime of a personal API token, in days. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(365)
  OPERATOR_TOKEN_MAX_DAYS?: number;

  /** Hours an enrolment token (answered by an operator's creation or reset) stays good. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(720)
  OPERATOR_SETUP_HOURS?: number;

  /** Failed sign-ins (and step-ups) of one account from one address per window before that address is throttled. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  SIGN_IN_ACCOUNT_LIMIT?: number;

  /** Password and code checks of one account per minute, from all addresses together. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  SIGN_IN_ACCOUNT_PER_MINUTE?: number;

  /** Sign-in attempts from one address per window before it is throttled. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  SIGN_IN_ADDRESS_LIMIT?: number;

  /** Single sign-on: the OpenID provider's issuer URL (https; http only on a loopback host). */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  OIDC_ISSUER?: string;

  @IsOptional()
  @IsString()
  OIDC_CLIENT_ID?: string;

  /** Omitted for a public client (PKCE alone). */
  @IsOptional()
  @IsString()
  OIDC_CLIENT_SECRET?: string;

  /** Where the provider sends the browser back: this api's /api/v1/admin/sign-in/oidc/callback. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  OIDC_REDIRECT_URI?: string;

  /** Where a signed-in browser goes next (a path of this site). */
  @IsOptional()
  @IsString()
  OIDC_AFTER_SIGN_IN?: string;

  /** The sign-in throttle's window, in minutes. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1440)
  SIGN_IN_WINDOW_MINUTES?: number;
}

export interface AppConfig extends ServiceSettings {
  readonly port: number;
  readonly host: string;
  /** Null when ADMIN_TOKEN is not set: no bootstrap. */
  readonly adminToken: string | null;
  readonly tokenTtlSeconds: number;
  readonly signatureWindow: { readonly maxAgeSeconds: number; readonly maxAheadSeconds: number };
  readonly bodyLimitBytes: number;
  readonly tokenRateLimitPerMinute: number;
  readonly kycExpiryDays: number;
  readonly kycExpirySweepSeconds: number;
  readonly orderSweepMs: number;
  /** Without a trailing slash; null (never in production): the address each request was sent to. */
  readonly publicUrl: string | null;
  /** The proxies whose forwarded headers are believed, as Fastify's trustProxy takes them; empty: none. */
  readonly trustProxy: readonly string[];
  readonly dashboardLinkTtlSeconds: number;
  readonly eventStreams: { readonly heartbeatMs: number; readonly perOrg: number };
  readonly operators: OperatorSettings;
  readonly marketData: MarketDataSettings;
}

export interface OperatorSettings {
  readonly sessionIdleMinutes: number;
  readonly sessionMaxHours: number;
  readonly stepUpMinutes: number;
  readonly tokenMaxDays: number;
  readonly setupHours: number;
  readonly signIn: {
    /** Failures of one account from one address per window. */
    readonly accountLimit: number;
    /** Checks of one account per minute, from every address. */
    readonly accountPerMinute: number;
    readonly addressLimit: number;
    readonly windowMinutes: number;
  };
  /** Single sign-on through OpenID Connect; null when not configured. */
  readonly oidc: {
    readonly issuer: string;
    readonly clientId: string;
    readonly clientSecret: string | null;
    readonly redirectUri: string;
    readonly afterSignIn: string;
  } | null;
}

/** Validates `source` (default process.env); throws ConfigError with one line per bad variable. */
export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  root = process.cwd(),
): AppConfig {
  const env = loadServiceEnvironment(Environment, source, (env, mode) => {
    const problems: string[] = [];
    if (mode === 'production' && !env.PUBLIC_URL) {
      problems.push(
        'PUBLIC_URL: required in production (where people reach the api, e.g. https://api.example.com: ' +
          'the links the api hands out start with it)',
      );
    }
    const set = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_REDIRECT_URI].filter(Boolean).length;
    if (set !== 0 && set !== 3) {
      problems.push(
        'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_REDIRECT_URI: set all three for single sign-on, or none',
      );
    }
    return [...problems, ...marketDataProblems(env)];
  });
  const settings = serviceSettings(env, root);
  return Object.freeze({
    ...settings,
    port: env.PORT ?? 3000,
    host: env.HOST ?? '127.0.0.1',
    adminToken: env.ADMIN_TOKEN ?? null,
    tokenTtlSeconds: env.TOKEN_TTL_SECONDS ?? 3600,
    signatureWindow: Object.freeze({
      maxAgeSeconds: env.SIGNATURE_MAX_AGE_SECONDS ?? 300,
      maxAheadSeconds: env.SIGNATURE_MAX_AHEAD_SECONDS ?? 3900,
    }),
    bodyLimitBytes: env.BODY_LIMIT_BYTES ?? 1024 * 1024,
    tokenRateLimitPerMinute: env.TOKEN_RATE_LIMIT_PER_MINUTE ?? 30,
    kycExpiryDays: env.KYC_EXPIRY_DAYS ?? 30,
    kycExpirySweepSeconds: env.KYC_EXPIRY_SWEEP_SECONDS ?? (settings.env === 'test' ? 0 : 60),
    orderSweepMs: env.ORDER_SWEEP_MS ?? (settings.env === 'test' ? 0 : 1000),
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, '') ?? null,
    trustProxy: Object.freeze(splitList(env.TRUST_PROXY ?? '')),
    dashboardLinkTtlSeconds: env.DASHBOARD_LINK_TTL_SECONDS ?? 600,
    eventStreams: Object.freeze({
      heartbeatMs: env.EVENT_STREAM_HEARTBEAT_MS ?? 15_000,
      perOrg: env.EVENT_STREAMS_PER_ORG ?? 10,
    }),
    operators: Object.freeze({
      sessionIdleMinutes: env.OPERATOR_SESSION_IDLE_MINUTES ?? 30,
      sessionMaxHours: env.OPERATOR_SESSION_MAX_HOURS ?? 12,
      stepUpMinutes: env.OPERATOR_STEP_UP_MINUTES ?? 5,
      tokenMaxDays: env.OPERATOR_TOKEN_MAX_DAYS ?? 90,
      setupHours: env.OPERATOR_SETUP_HOURS ?? 72,
      signIn: Object.freeze({
        accountLimit: env.SIGN_IN_ACCOUNT_LIMIT ?? 5,
        accountPerMinute: env.SIGN_IN_ACCOUNT_PER_MINUTE ?? 10,
        addressLimit: env.SIGN_IN_ADDRESS_LIMIT ?? 30,
        windowMinutes: env.SIGN_IN_WINDOW_MINUTES ?? 15,
      }),
      oidc:
        env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_REDIRECT_URI
          ? Object.freeze({
              issuer: env.OIDC_ISSUER,
              clientId: env.OIDC_CLIENT_ID,
              clientSecret: env.OIDC_CLIENT_SECRET ?? null,
              redirectUri: env.OIDC_REDIRECT_URI,
              afterSignIn: env.OIDC_AFTER_SIGN_IN ?? '/console/',
            })
          : null,
    }),
    marketData: marketDataSettings(env),
  });
}

export const APP_CONFIG = Symbol('APP_CONFIG');
