// The rules a webhook URL must pass before anything is sent to it (docs/api-guide.md#webhook-signatures,
// docs/decisions.md, "Webhooks: where they may go").
import { isIP } from 'node:net';

import type { ReceiverPolicy } from './policy.js';

export type RefusalReason =
  'invalid_url' | 'https_required' | 'host_not_allowed' | 'blocked_address' | 'dns_failure';

/** A receiver the rules refuse; nothing was sent. */
export class ReceiverRefusedError extends Error {
  override readonly name = 'ReceiverRefusedError';

  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

export const MAX_URL_LENGTH = 2048;

/**
 * Checks `url` against the organisation's kycDomain and the policy; returns the parsed URL or throws
 * ReceiverRefusedError. The host must be the kycDomain or a subdomain of it (compared without case or
 * a trailing dot); https unless the policy allows http; no user name or password in the URL.
 */
export function checkReceiverUrl(url: string, kycDomain: string, policy: ReceiverPolicy): URL {
  if (url.length > MAX_URL_LENGTH) {
    throw new ReceiverRefusedError('invalid_url', `url must be at most ${MAX_URL_LENGTH} characters`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ReceiverRefusedError('invalid_url', 'url must be an absolute http(s) URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ReceiverRefusedError('invalid_url', `url must use https, not ${parsed.protocol.slice(0, -1)}`);
  }
  if (parsed.protocol === 'http:' && !policy.allowHttp) {
    throw new ReceiverRefusedError('https_required', 'url must use https');
  }
  if (parsed.username || parsed.password) {
    throw new ReceiverRefusedError('invalid_url', 'url must not carry a user name or password');
  }
  if (parsed.hash) throw new ReceiverRefusedError('invalid_url', 'url must not have a fragment (#...)');
  const host = hostName(parsed);
  const domain = kycDomain.toLowerCase().replace(/\.$/, '');
  const hostIsIp = isIP(host) !== 0;
  if (!domain || !(host === domain || (!hostIsIp && host.endsWith(`.${domain}`)))) {
    throw new ReceiverRefusedError(
      'host_not_allowed',
      `url host must be ${kycDomain} or a subdomain of it (the organisation's KYC domain), not ${host}`,
    );
  }
  return parsed;
}

/** The URL's host without IPv6 brackets or a trailing dot, lowercase. */
export function hostName(url: URL): string {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return host.toLowerCase().replace(/\.$/, '');
}
