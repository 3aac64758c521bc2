// `svc listen`'s command line: the flags (node:util parseArgs), the environment variables that stand in for
// them, and the checks that turn them into ListenOptions or a UsageError of one line. Nothing here connects.
import { parseArgs } from 'node:util';

import { ENTITY_NAMES, KYC_EVENT_TYPES, parseScopes, type WebhookEvent } from '@svc/protocol';

import type { SvcClientOptions } from '../client.js';

/** A mistake on the command line (exit 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The names `--events` takes: an event's name is its KYC eventType, or else its entity. */
export const EVENT_NAMES: readonly string[] = [...ENTITY_NAMES, ...KYC_EVENT_TYPES];

/** The api's rule for a webhook secret, kept for the local one so it works as a real endpoint's would. */
const SECRET_LENGTH = { min: 16, max: 512 } as const;

export const DEFAULT_LISTEN_SCOPES = 'BASE_MODULE:READ';

/**
 * Failures in a row (no answer, a dropped connection, 429, 5xx) before `svc listen` gives up: about 4 to
 * 8 s of the client's backoff against an address that refuses connections.
 */
export const DEFAULT_MAX_TRIES = 5;

export interface ListenOptions {
  readonly forwardTo: string;
  /** Undefined: every event. */
  readonly events: ReadonlySet<string> | undefined;
  /** Undefined: generate one. */
  readonly secret: string | undefined;
  readonly since: string | undefined;
  readonly lastEventId: string | undefined;
  /** Failures in a row before giving up, >= 1. */
  readonly maxTries: number;
  /** baseUrl and credentials, as SvcClient takes them. */
  readonly client: SvcClientOptions;
}

const FLAGS = {
  'forward-to': { type: 'string' },
  events: { type: 'string' },
  secret: { type: 'string' },
  since: { type: 'string' },
  'last-event-id': { type: 'string' },
  'max-tries': { type: 'string' },
  url: { type: 'string' },
  'api-key': { type: 'string' },
  'api-secret': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  scopes: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseListenFlags>['values'];

/** The flags of the api's address and credentials, which every command takes. */
export type CredentialFlags = Pick<
  Values,
  'url' | 'api-key' | 'api-secret' | 'client-id' | 'client-secret' | 'scopes'
>;

/** The flags as given; a UsageError for an unknown flag, a missing value or a stray argument. */
export function parseListenFlags(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false });
  } catch (error) {
    // parseArgs explains at length; its first sentence names the problem.
    const message = (error as Error).message.split(/\.\s/)[0] ?? String(error);
    throw new UsageError(message.replace(/\.$/, ''));
  }
}

/** Checks the flags, filling the missing ones from `env`. */
export function listenOptions(
  values: Values,
  env: Readonly<Record<string, string | undefined>>,
): ListenOptions {
  const forwardTo = values['forward-to'];
  if (forwardTo === undefined)
    throw new UsageError('--forward-to is required, e.g. --forward-to http://localhost:3000/webhooks');
  checkHttpUrl('--forward-to', forwardTo);
  const secret = values.secret ?? nonEmpty(env.SVC_WEBHOOK_SECRET);
  if (secret !== undefined && (secret.length < SECRET_LENGTH.min || secret.length > SECRET_LENGTH.max)) {
    throw new UsageError(
      `--secret must be ${SECRET_LENGTH.min} to ${SECRET_LENGTH.max} characters, as an endpoint's secret is (got ${secret.length})`,
    );
  }
  if (values.since !== undefined && values['last-event-id'] !== undefined) {
    throw new UsageError('give --since or --last-event-id, not both');
  }
  if (values.since !== undefined && Number.isNaN(Date.parse(values.since))) {
    throw new UsageError(
      `--since must be an ISO 8601 time, e.g. 2025-01-01T00:00:00Z (got ${JSON.stringify(values.since)})`,
    );
  }
  return {
    forwardTo,
    events: values.events === undefined ? undefined : eventNames(values.events),
    secret,
    since: values.since,
    lastEventId: values['last-event-id'],
    maxTries: maxTries(values['max-tries']),
    client: clientOptions(values, env),
  };
}

function maxTries(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_TRIES;
  if (!/^[1-9][0-9]{0,5}$/.test(value)) {
    throw new UsageError(`--max-tries must be a whole number from 1 to 999999, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

function eventNames(list: string): ReadonlySet<string> {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new UsageError('--events needs at least one name');
  const unknown = names.filter((name) => !EVENT_NAMES.includes(name));
  if (unknown.length > 0) {
    throw new UsageError(`--events: unknown ${unknown.join(', ')}; the names are ${EVENT_NAMES.join(', ')}`);
  }
  return new Set(names);
}

/** An event's name for `--events` and the output: its KYC eventType, or else its entity. */
export function eventName(event: WebhookEvent): string {
  return event.event.eventType ?? event.event.entity;
}

/**
 * The api's address and one kind of credentials: flags first, then the environment. Flags of one kind
 * set the kind; at the same level, both kinds at once is a mistake.
 */
export function clientOptions(
  values: CredentialFlags,
  env: Readonly<Record<string, string | undefined>>,
  defaultScopes = DEFAULT_LISTEN_SCOPES,
): SvcClientOptions {
  const baseUrl = values.url ?? nonEmpty(env.SVC_URL);
  if (baseUrl === undefined) throw new UsageError('the api address is missing: give --url or set SVC_URL');
  checkHttpUrl('--url', baseUrl);
  const fromFlags = {
    key: values['api-key'] !== undefined || values['api-secret'] !== undefined,
    client: values['client-id'] !== undefined || values['client-secret'] !== undefined,
  };
  const fromEnv = {
    key: nonEmpty(env.SVC_API_KEY) !== undefined || nonEmpty(env.SVC_API_SECRET) !== undefined,
    client: nonEmpty(env.SVC_CLIENT_ID) !== undefined || nonEmpty(env.SVC_CLIENT_SECRET) !== undefined,
  };
  const level = fromFlags.key || fromFlags.client ? fromFlags : fromEnv;
  if (level.key && level.client) {
    throw new UsageError(
      level === fromFlags
        ? 'give an API key (--api-key, --api-secret) or an OAuth client (--client-id, --client-secret), not both'
        : 'both SVC_API_KEY/SVC_API_SECRET and SVC_CLIENT_ID/SVC_CLIENT_SECRET are set: unset one kind, or choose with flags',
    );
  }
  const pick = (flag: keyof CredentialFlags, variable: string): string => {
    const value = level === fromFlags ? values[flag] : nonEmpty(env[variable]);
    if (value === undefined || value.trim() === '') {
      throw new UsageError(`--${flag} is missing (or set ${variable})`);
    }
    return value.trim();
  };
  if (level.key)
    return {
      baseUrl,
      apiKey: pick('api-key', 'SVC_API_KEY'),
      apiSecret: pick('api-secret', 'SVC_API_SECRET'),
    };
  if (level.client) {
    const scopes = values.scopes ?? nonEmpty(env.SVC_SCOPES) ?? defaultScopes;
    try {
      parseScopes(scopes);
    } catch (error) {
      throw new UsageError(`--scopes: ${(error as Error).message}`);
    }
    return {
      baseUrl,
      clientId: pick('client-id', 'SVC_CLIENT_ID'),
      clientSecret: pick('client-secret', 'SVC_CLIENT_SECRET'),
      scopes,
    };
  }
  throw new UsageError(
    'credentials are missing: give --api-key and --api-secret (or SVC_API_KEY, SVC_API_SECRET), or ' +
      '--client-id and --client-secret (or SVC_CLIENT_ID, SVC_CLIENT_SECRET)',
  );
}

function checkHttpUrl(flag: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${flag} must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

export const LISTEN_USAGE = `Usage: svc listen --forward-to <url> [options]

Follows your organisation's events as they happen and POSTs each one to a receiver of yours, signed as
the service signs webhook deliveries (svc-signature, svc-timestamp, svc-event-id) with a local secret
printed at start. Reconnects and resumes by itself; Ctrl-C stops it.

  --forward-to <url>      where each event is POSTed, e.g. http://localhost:3000/webhooks (required)
  --events <names>        only these, comma-separated: Orders, Users, Actions, SystemInformation,
                          or a KYC event type (KYC_PENDING, KYC_COMPLETED, ...)
  --secret <secret>       sign with this secret (16 to 512 characters) instead of a new one
                          [env SVC_WEBHOOK_SECRET]
  --since <time>          start with the events since this ISO 8601 time (default: from now on)
  --last-event-id <id>    resume after this event (the last line of an earlier run names it)
  --max-tries <n>         give up after this many failures in a row (no answer from the api, a
                          dropped connection, 429, 5xx) (default ${DEFAULT_MAX_TRIES})

The api and your organisation's credentials, an API key or an OAuth client (flags win over env):
  --url <url>             the api's address                          [env SVC_URL]
  --api-key <key>         with --api-secret <secret>                 [env SVC_API_KEY, SVC_API_SECRET]
  --client-id <id>        with --client-secret <secret>              [env SVC_CLIENT_ID, SVC_CLIENT_SECRET]
  --scopes <scopes>       for the OAuth client (default ${DEFAULT_LISTEN_SCOPES})   [env SVC_SCOPES]
  -h, --help              this text

Exit status: 0 when stopped, 1 when the api refuses (credentials, scope) or fails --max-tries times in a
row, 2 for a mistake on the command line.`;
