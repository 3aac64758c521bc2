// `svc trigger <event>`: records a real event in a sandbox organisation (POST /api/v1/sandbox/events), which
// is then delivered to its webhook and seen by `svc listen` like any other (docs/testing.md).
import { parseArgs } from 'node:util';

import { KYC_EVENT_TYPES, type EntityName, type KycEventType } from '@svc/protocol';

import type { SvcClient } from '../client.js';
import type { TriggerEventParams } from '../types.js';
import { EVENT_NAMES, UsageError, clientOptions } from './listen-options.js';

export const DEFAULT_TRIGGER_SCOPES = 'BASE_MODULE:WRITE';

const FLAGS = {
  user: { type: 'string' },
  url: { type: 'string' },
  'api-key': { type: 'string' },
  'api-secret': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  scopes: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The command line: the event's name and the user, or a UsageError. `help` set asks for the usage. */
export function triggerOptions(argv: readonly string[], env: Readonly<Record<string, string | undefined>>) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(((error as Error).message.split(/\.\s/)[0] ?? String(error)).replace(/\.$/, ''));
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true as const };
  if (positionals.length !== 1) {
    throw new UsageError(
      `name one event, e.g. svc trigger KYC_COMPLETED; the names are ${EVENT_NAMES.join(', ')}`,
    );
  }
  const name = positionals[0] ?? '';
  if (!EVENT_NAMES.includes(name)) {
    throw new UsageError(`unknown event ${JSON.stringify(name)}; the names are ${EVENT_NAMES.join(', ')}`);
  }
  if (values.user !== undefined && !['Users', 'Orders', ...KYC_EVENT_TYPES].includes(name)) {
    throw new UsageError('--user applies to Users, Orders and the KYC events only');
  }
  return {
    help: false as const,
    event: triggerParams(name, values.user),
    client: clientOptions(values, env, DEFAULT_TRIGGER_SCOPES),
  };
}

/** An event's name (its KYC eventType, or else its entity) as the route's body. */
export function triggerParams(name: string, orgUserId: string | undefined): TriggerEventParams {
  const kyc = (KYC_EVENT_TYPES as readonly string[]).includes(name);
  return {
    entity: kyc ? 'Users' : (name as EntityName),
    ...(kyc ? { eventType: name as KycEventType } : {}),
    ...(orgUserId === undefined ? {} : { orgUserId }),
  };
}

/** Triggers the event and prints one line: its id, and the user it is about. */
export async function trigger(
  client: SvcClient,
  event: TriggerEventParams,
  stdout: (text: string) => void,
): Promise<number> {
  const triggered = await client.sandbox.trigger(event);
  const name = event.eventType ?? event.entity;
  const user =
    triggered.orgUserId === null
      ? ''
      : ` about user ${triggered.orgUserId}${triggered.createdUser ? ' (created for it)' : ''}`;
  stdout(`Triggered ${name}: event ${triggered.eventId}${user}\n`);
  return 0;
}

export const TRIGGER_USAGE = `Usage: svc trigger <event> [--user <orgUserId>] [options]

Records a real event in your sandbox organisation: stored, in the event log and the stream, and delivered
to your webhook with retries (svc listen sees it too). A live organisation answers 404.

  <event>                 Orders, Users, Actions, SystemInformation, or a KYC event type
                          (KYC_PENDING, KYC_DOC_UPLOADED, KYC_FORM_SUBMITTED, KYC_COMPLETED,
                          KYC_REJECTED, KYC_RFI, KYC_EXPIRED)
  --user <orgUserId>      the user of a Users, KYC or Orders event (default: a new sandbox user)

The api and your organisation's credentials, an API key or an OAuth client (flags win over env):
  --url <url>             the api's address                          [env SVC_URL]
  --api-key <key>         with --api-secret <secret>                 [env SVC_API_KEY, SVC_API_SECRET]
  --client-id <id>        with --client-secret <secret>              [env SVC_CLIENT_ID, SVC_CLIENT_SECRET]
  --scopes <scopes>       for the OAuth client (default ${DEFAULT_TRIGGER_SCOPES})   [env SVC_SCOPES]
  -h, --help              this text

Exit status: 0 when recorded, 1 when the api refuses (credentials, scope, a live organisation), 2 for a
mistake on the command line.`;
