// Where webhooks may go, configured once for the api and the worker alike (DESIGN section 9): https
// only and public addresses only, unless development asks for less.
import { networkList, NetworkListError } from './addresses.js';

export interface ReceiverPolicy {
  /** Plain http receivers are accepted (development only). */
  readonly allowHttp: boolean;
  /** Networks (CIDR) accepted although they are not public, e.g. loopback in development. */
  readonly allowedNetworks: readonly string[];
}

/** Production: https to public addresses only. */
export const STRICT_POLICY: ReceiverPolicy = Object.freeze({ allowHttp: false, allowedNetworks: [] });

/** `npm start`: also http://localhost:<port> receivers, for an organisation whose kycDomain is localhost. */
export const DEVELOPMENT_POLICY: ReceiverPolicy = Object.freeze({
  allowHttp: true,
  allowedNetworks: ['127.0.0.0/8', '::1/128'],
});

/**
 * Reads WEBHOOK_ALLOW_HTTP (true|false) and WEBHOOK_ALLOWED_NETWORKS (comma-separated CIDR, may be
 * empty). Unset, they follow the mode: development gets {@link DEVELOPMENT_POLICY}, any other mode
 * {@link STRICT_POLICY}. Bad values are returned as one problem line each.
 */
export function receiverPolicyFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  mode: string,
): { policy: ReceiverPolicy; problems: string[] } {
  const defaults = mode === 'development' ? DEVELOPMENT_POLICY : STRICT_POLICY;
  const problems: string[] = [];
  let allowHttp = defaults.allowHttp;
  const http = env.WEBHOOK_ALLOW_HTTP;
  if (http !== undefined) {
    if (http === 'true' || http === 'false') allowHttp = http === 'true';
    else problems.push(`WEBHOOK_ALLOW_HTTP: must be true or false (got ${JSON.stringify(http)})`);
  }
  let allowedNetworks = defaults.allowedNetworks;
  const networks = env.WEBHOOK_ALLOWED_NETWORKS;
  if (networks !== undefined) {
    allowedNetworks = networks
      .split(',')
      .map((network) => network.trim())
      .filter((network) => network !== '');
    try {
      networkList(allowedNetworks);
    } catch (error) {
      if (!(error instanceof NetworkListError)) throw error;
      problems.push(`WEBHOOK_ALLOWED_NETWORKS: ${error.message}`);
    }
  }
  return {
    policy: Object.freeze({ allowHttp, allowedNetworks: Object.freeze([...allowedNetworks]) }),
    problems,
  };
}

/** Spec 6.2 and 8: failed events are not delivered after one day. */
export const DELIVERY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** What the api and the worker both need to know about webhooks. */
export interface WebhookSettings {
  readonly receivers: ReceiverPolicy;
  /** No attempt, redelivery included, after an event's createdAt plus this. */
  readonly windowMs: number;
}

/**
 * {@link receiverPolicyFromEnv} plus WEBHOOK_WINDOW_MS (default one day; tests shorten it rather than
 * wait).
 */
export function webhookSettingsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  mode: string,
): { settings: WebhookSettings; problems: string[] } {
  const { policy, problems } = receiverPolicyFromEnv(env, mode);
  const windowMs = positiveInteger(env, 'WEBHOOK_WINDOW_MS', DELIVERY_WINDOW_MS, problems);
  return { settings: Object.freeze({ receivers: policy, windowMs }), problems };
}

/** A whole number >= 1 from `env[name]`, or `fallback` when unset; a bad value adds a problem line. */
export function positiveInteger(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: number,
  problems: string[],
): number {
  const raw = env[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(value) || value < 1) {
    problems.push(`${name}: must be a whole number >= 1 (got ${JSON.stringify(raw)})`);
    return fallback;
  }
  return value;
}
