// Where the api is and who is calling: flags, then environment, then the file `npm start` writes.
import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';

import type { Values } from './args.js';
import { UsageError } from './errors.js';

export interface DemoCredentials {
  readonly baseUrl?: string;
  readonly adminToken?: string;
}

export interface Connection {
  readonly baseUrl: string;
  readonly token: string;
  readonly actor: string;
}

/** The demo credentials file (.data/demo-credentials.json), or nothing when absent or unreadable. */
export function readDemoCredentials(file: string): DemoCredentials {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials;
  } catch {
    return {};
  }
}

/** `cli:<user name>` when that is a valid actor label, else `cli`. */
export function defaultActor(username: () => string = () => userInfo().username): string {
  try {
    const name = `cli:${username()}`;
    return /^[A-Za-z0-9 ._:@+/-]{1,64}$/.test(name) ? name : 'cli';
  } catch {
    return 'cli';
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
  const token = values.token || env.SVC_ADMIN_TOKEN || file.adminToken;
  if (!baseUrl || !token) {
    throw new UsageError(
      `no ${baseUrl ? 'admin token' : 'api address'}: pass --url and --token, set SVC_URL and ` +
        'SVC_ADMIN_TOKEN, or run `npm start` once (it writes .data/demo-credentials.json)',
    );
  }
  const actor = values.actor || env.SVC_ADMIN_ACTOR || defaultActor();
  return { baseUrl: baseUrl.replace(/\/+$/, ''), token, actor };
}
