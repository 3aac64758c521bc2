// Where the api is and who is calling (a personal token): flags, then environment, then the file `npm start`
// writes. The audit log names the token's operator; --actor and SVC_ADMIN_ACTOR are ignored, with a warning.
import { existsSync, readFileSync } from 'node:fs';

import type { Values } from './args.js';
import { UsageError } from './errors.js';

export interface DemoCredentials {
  readonly baseUrl?: string;
  readonly operatorToken?: string;
}

export interface Connection {
  readonly baseUrl: string;
  readonly token: string;
  /** What the caller should know, e.g. that --actor is ignored. */
  readonly warnings: readonly string[];
}

export const ACTOR_IGNORED =
  'warning: --actor and SVC_ADMIN_ACTOR are ignored: the audit log names the operator of the token';

/** The demo credentials file (.data/demo-credentials.json), or nothing when absent or unreadable. */
export function readDemoCredentials(file: string): DemoCredentials {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials;
  } catch {
    return {};
  }
}

/** The first of flag, environment variable and demo file that is set, for the address and the token. */
export function resolveConnection(
  values: Values,
  env: Readonly<Record<string, string | undefined>>,
  demo: () => DemoCredentials,
): Connection {
  const file = demo();
  const baseUrl = values.url || env.SVC_URL || file.baseUrl;
  const token = values.token || env.SVC_OPERATOR_TOKEN || file.operatorToken;
  if (!baseUrl || !token) {
    throw new UsageError(
      `no ${baseUrl ? 'personal token' : 'api address'}: pass --url and --token, set SVC_URL and ` +
        'SVC_OPERATOR_TOKEN, or run `npm start` once (it writes .data/demo-credentials.json)',
    );
  }
  const warnings = values.actor !== undefined || env.SVC_ADMIN_ACTOR ? [ACTOR_IGNORED] : [];
  return { baseUrl: baseUrl.replace(/\/+$/, ''), token, warnings };
}
