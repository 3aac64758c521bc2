// Request signing with the API key (docs/api-guide.md#api-key-signing), as the client's Authenticator, never
// sending the same signature twice.
import { HEADERS, signedRequestHeaders, type SignedRequestHeaders } from '@svc/protocol';

import type { Authenticator } from './transport.js';

/** Longest a timestamp is moved ahead to keep a signature unique; the api accepts up to now + 3900 s. */
const MAX_TIMESTAMP_BUMP_SECONDS = 3600;

/**
 * Signatures sent, by API key and then by timestamp, shared by every client of this process (two clients
 * with one key would otherwise sign the same request alike). Only timestamps >= now can repeat.
 */
const sentByKey = new Map<string, Map<number, Set<string>>>();

/**
 * Signs with the API key (docs/api-guide.md#api-key-signing) and never sends the same signature twice: two
 * identical requests in the same second would carry the same one, and the api refuses the second as a replay.
 * When a signature would repeat, X-TIMESTAMP moves one second ahead, as often as needed. Another process
 * using the same key can still collide: a 401 is then repeated once, signed afresh (the api did nothing with
 * it).
 */
export class RequestSigner implements Authenticator {
  private readonly sent: Map<number, Set<string>>;

  constructor(
    private readonly credentials: { readonly apiKey: string; readonly apiSecret: string },
    private readonly now: () => number,
  ) {
    let sent = sentByKey.get(credentials.apiKey);
    if (!sent) sentByKey.set(credentials.apiKey, (sent = new Map<number, Set<string>>()));
    this.sent = sent;
  }

  headers(request: { path: string; query: string; body: string }): Promise<Record<string, string>> {
    return Promise.resolve({ ...this.sign(request) });
  }

  refreshAfterUnauthorized(): boolean {
    return true;
  }

  sign(request: { path: string; query: string; body: string }): SignedRequestHeaders {
    const now = Math.floor(this.now() / 1000);
    for (const timestamp of this.sent.keys()) if (timestamp < now) this.sent.delete(timestamp);
    for (let timestamp = now; timestamp <= now + MAX_TIMESTAMP_BUMP_SECONDS; timestamp++) {
      const headers = signedRequestHeaders({ ...request, timestamp: String(timestamp) }, this.credentials);
      const signature = headers[HEADERS.signature];
      let bucket = this.sent.get(timestamp);
      if (bucket?.has(signature)) continue;
      if (!bucket) this.sent.set(timestamp, (bucket = new Set()));
      bucket.add(signature);
      return headers;
    }
    throw new Error(
      `more than ${MAX_TIMESTAMP_BUMP_SECONDS} identical requests signed within the window: the api would refuse them as replays`,
    );
  }
}
