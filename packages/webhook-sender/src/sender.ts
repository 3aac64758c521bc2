// One signed webhook request (docs/api-guide.md#webhook-signatures,
// docs/api-guide.md#registration-and-the-challenge,
// docs/api-guide.md#delivery-retries-and-the-24-hour-window; docs/decisions.md, "Webhooks: where they may
// go"), shared by the api (registration challenge) and the worker (deliveries): the host is resolved once,
// every address is vetted, and the connection goes to a vetted address (the lookup that vets is the lookup
// that connects, so a second, rebinding answer is never asked for). Redirects are not followed. The status
// line must arrive within the attempt limit; only 200 counts.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type BlockList } from 'node:net';
import type { Readable } from 'node:stream';

import { webhookHeaders } from '@svc/protocol';
import { Agent, request } from 'undici';

import { isAddressAllowed, networkList } from './addresses.js';
import type { ReceiverPolicy } from './policy.js';
import { hostName, ReceiverRefusedError } from './receiver-url.js';
import { parseRetryAfter, RETRY_AFTER_STATUSES } from './retry-after.js';

/** docs/api-guide.md#delivery-retries-and-the-24-hour-window, docs/api-guide.md#limits: no 200 within one second is a failed delivery. */
export const ATTEMPT_TIMEOUT_MS = 1000;

/** IP literal hosts remembered as allowed, at most. */
const MAX_REMEMBERED_LITERALS = 1000;

/**
 * How much of an answer is kept for the delivery log (docs/decisions.md, "Webhooks: attempts, retries and the
 * window").
 */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** Why an attempt failed, as the worker records it and the api answers it. */
export const ATTEMPT_ERROR_KINDS = [
  'http_status',
  'timeout',
  'connection_refused',
  'connection_reset',
  'connection_closed',
  'dns_failure',
  'blocked_address',
  'invalid_url',
  'https_required',
  'host_not_allowed',
  'tls_error',
  'network_error',
] as const;

export type AttemptErrorKind = (typeof ATTEMPT_ERROR_KINDS)[number];

export interface AttemptResult {
  /** HTTP 200 within the limit. */
  readonly delivered: boolean;
  readonly startedAt: Date;
  readonly durationMs: number;
  /** Null when no status line arrived. */
  readonly statusCode: number | null;
  /** Null when delivered; `http_status` for any answer other than 200. */
  readonly errorKind: AttemptErrorKind | null;
  /** The start of the answer's body (or the error's message), at most RESPONSE_EXCERPT_BYTES bytes. */
  readonly response: string;
  /**
   * A 429 or 503 with a valid Retry-After: how long the receiver asked us to wait, in ms from the answer
   * (docs/api-guide.md#when-your-receiver-asks-for-time). Null otherwise.
   */
  readonly retryAfterMs: number | null;
}

/** Resolves a host name to every address it has; the default is the system resolver (dns.lookup). */
export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

export interface SenderOptions {
  readonly policy: ReceiverPolicy;
  /** For tests: answers a name with addresses of the test's choosing. */
  readonly resolver?: Resolver;
  /** Default ATTEMPT_TIMEOUT_MS. */
  readonly timeoutMs?: number;
}

/**
 * Every header of a webhook request, exactly as the sender sends it: signed at `timestamp` (ms), which is
 * also the attempt's recorded start, so the dashboard can show an attempt's request as the receiver got it.
 */
export function webhookRequestHeaders(
  input: Pick<WebhookRequest, 'body' | 'secret' | 'eventId'>,
  timestamp: number,
): Record<string, string> {
  return {
    ...webhookHeaders(
      input.body,
      input.secret,
      input.eventId === undefined ? { timestamp } : { eventId: input.eventId, timestamp },
    ),
    'user-agent': 'svc-webhooks/1',
  };
}

export interface WebhookRequest {
  readonly url: URL;
  /** The exact body text to send and sign. */
  readonly body: string;
  /** The endpoint's secret, in clear. */
  readonly secret: string;
  /** The svc-event-id header; absent for the challenge. */
  readonly eventId?: string;
  /** Bytes of the answer to keep; default RESPONSE_EXCERPT_BYTES. */
  readonly keepBytes?: number;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

export class WebhookSender {
  readonly policy: ReceiverPolicy;
  private readonly allowed: BlockList;
  private readonly resolver: Resolver;
  private readonly timeoutMs: number;
  private readonly agent: Agent;
  private readonly allowedLiterals = new Set<string>();

  constructor(options: SenderOptions) {
    this.policy = options.policy;
    this.allowed = networkList(options.policy.allowedNetworks);
    this.resolver = options.resolver ?? systemResolver;
    this.timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.agent = new Agent({
      connect: { lookup: this.pinnedLookup, timeout: this.timeoutMs },
      keepAliveTimeout: 4000,
      keepAliveMaxTimeout: 30_000,
      // A receiver that streams an endless body must not hold a connection: we keep 1 KB and drop it.
      bodyTimeout: this.timeoutMs,
      headersTimeout: this.timeoutMs,
    });
  }

  /**
   * Resolves `hostname` and returns its addresses when every one of them is allowed; throws
   * ReceiverRefusedError otherwise. A name with one private address among public ones is refused.
   */
  async vet(hostname: string): Promise<readonly LookupAddress[]> {
    if (isIP(hostname)) {
      this.checkAddress(hostname, hostname);
      return [{ address: hostname, family: isIP(hostname) }];
    }
    let addresses: readonly LookupAddress[];
    try {
      addresses = await this.resolver(hostname);
    } catch (error) {
      throw new ReceiverRefusedError(
        'dns_failure',
        `${hostname} could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    if (addresses.length === 0) throw new ReceiverRefusedError('dns_failure', `${hostname} has no address`);
    for (const { address } of addresses) this.checkAddress(hostname, address);
    return addresses;
  }

  /** POSTs `body` signed with `secret` (fresh svc-timestamp); never throws for the receiver's faults. */
  async send(input: WebhookRequest): Promise<AttemptResult> {
    const startedAt = new Date();
    const started = performance.now();
    const done = (
      statusCode: number | null,
      errorKind: AttemptErrorKind | null,
      response: string,
      retryAfterMs: number | null = null,
    ): AttemptResult => ({
      delivered: statusCode === 200 && errorKind === null,
      startedAt,
      durationMs: Math.round(performance.now() - started),
      statusCode,
      errorKind,
      response,
      retryAfterMs,
    });

    // One timer per attempt: until the status line it aborts the request; then, refreshed, it bounds the
    // read of the answer's excerpt.
    const controller = new AbortController();
    let body: Readable | undefined;
    const timer = setTimeout(() => (body ? body.destroy() : controller.abort()), this.timeoutMs);
    try {
      // An IP literal never reaches the lookup below, so it is vetted here.
      const host = hostName(input.url);
      if (isIP(host)) this.checkLiteral(host);
      const answer = await request(input.url, {
        dispatcher: this.agent,
        method: 'POST',
        headers: webhookRequestHeaders(input, startedAt.getTime()),
        body: input.body,
        signal: controller.signal,
      });
      body = answer.body;
      timer.refresh();
      const excerpt = await readExcerpt(body, input.keepBytes ?? RESPONSE_EXCERPT_BYTES);
      const retryAfter = answer.headers['retry-after'];
      const retryAfterMs = RETRY_AFTER_STATUSES.includes(answer.statusCode)
        ? // A header sent twice is no single instruction: ignored.
          parseRetryAfter(typeof retryAfter === 'string' ? retryAfter : undefined, Date.now())
        : null;
      return done(answer.statusCode, answer.statusCode === 200 ? null : 'http_status', excerpt, retryAfterMs);
    } catch (error) {
      const kind = controller.signal.aborted ? 'timeout' : errorKind(error);
      const message =
        kind === 'timeout' ? `no status line within ${this.timeoutMs} ms` : describeError(error);
      return done(null, kind, truncate(message, RESPONSE_EXCERPT_BYTES));
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /**
   * An IP literal host, vetted once: the policy does not change, so neither does its answer (for the webhook
   * deliveries/s target: docs/decisions.md, "Webhooks: the worker's own CPU per delivery").
   */
  private checkLiteral(address: string): void {
    if (this.allowedLiterals.has(address)) return;
    this.checkAddress(address, address);
    if (this.allowedLiterals.size >= MAX_REMEMBERED_LITERALS) this.allowedLiterals.clear();
    this.allowedLiterals.add(address);
  }

  private checkAddress(hostname: string, address: string): void {
    if (!isAddressAllowed(address, this.allowed)) {
      throw new ReceiverRefusedError(
        'blocked_address',
        hostname === address
          ? `${address} is not a public address`
          : `${hostname} resolves to ${address}, which is not a public address`,
      );
    }
  }

  /** net.connect's `lookup`: resolve and vet in one step, then hand over only vetted addresses. */
  private readonly pinnedLookup = (
    hostname: string,
    options: LookupOptions,
    callback: LookupCallback,
  ): void => {
    this.vet(hostname).then(
      (addresses) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const usable = family ? addresses.filter((a) => a.family === family) : [...addresses];
        const first = usable[0];
        if (!first) {
          const error: NodeJS.ErrnoException = new Error(`${hostname} has no IPv${String(family)} address`);
          error.code = 'ENOTFOUND';
          callback(error, '');
        } else if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, ''),
    );
  };
}

/**
 * Reads at most `limit` bytes of a body, then drops the rest; the attempt's timer destroys a body that is too
 * slow. Events rather than `for await`: its iterator cost more than the rest of reading an empty answer (for
 * the deliveries/s target: docs/decisions.md, "Webhooks: the worker's own CPU per delivery").
 */
function readExcerpt(body: Readable, limit: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      body.off('data', onData).off('end', finish).off('close', finish);
      resolve(Buffer.concat(chunks).subarray(0, limit).toString('utf8'));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) {
        finish();
        body.destroy();
      }
    };
    // A body cut short (destroyed, reset) still leaves what arrived for the log: the status decided. The
    // error listener stays, so an error after the excerpt is not an uncaught one.
    body.on('data', onData).on('end', finish).on('error', finish).on('close', finish);
  });
}

function errorKind(error: unknown): AttemptErrorKind {
  if (error instanceof ReceiverRefusedError) return error.reason;
  const codes = errorCodes(error);
  const has = (...wanted: string[]) => wanted.some((code) => codes.includes(code));
  if (has('UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'ETIMEDOUT')) return 'timeout';
  if (has('ECONNREFUSED')) return 'connection_refused';
  if (has('ECONNRESET')) return 'connection_reset';
  if (has('UND_ERR_SOCKET', 'EPIPE')) return 'connection_closed';
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME')) return 'dns_failure';
  if (codes.some((code) => /CERT|TLS|SSL/.test(code))) return 'tls_error';
  return 'network_error';
}

/** The codes of an error and its causes (undici wraps socket errors). */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  return codes;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message !== error.message
    ? `${error.message}: ${cause.message}`
    : error.message;
}

function truncate(text: string, bytes: number): string {
  const buffer = Buffer.from(text, 'utf8');
  return buffer.length <= bytes ? text : buffer.subarray(0, bytes).toString('utf8');
}
