// One event POSTed to the developer's receiver, signed as the webhook worker signs a delivery (the
// protocol's webhookHeaders: svc-signature, svc-timestamp, svc-event-id), and the line `svc listen` prints.
import { webhookHeaders } from '@svc/protocol';

import { describeNetworkError } from '../answer.js';
import type { FetchLike } from '../transport.js';

/** Longer than the service allows (1 s), so a receiver paused in a debugger still gets its answer seen. */
export const FORWARD_TIMEOUT_MS = 10_000;

/** The service counts a delivery only if its status line comes within this (docs/api-guide.md). */
const SERVICE_LIMIT_MS = 1000;

export interface ForwardResult {
  /** The receiver's HTTP status; undefined when it did not answer. */
  readonly status: number | undefined;
  /** Why there is no status. */
  readonly error: string | undefined;
  /** From sending to the status line, as the service measures a delivery. */
  readonly durationMs: number;
}

export interface ForwardRequest {
  readonly url: string;
  /** The event's body text, sent and signed exactly as the stream carried it. */
  readonly body: string;
  readonly eventId: string;
  readonly secret: string;
  readonly userAgent: string;
}

export async function forward(
  request: ForwardRequest,
  fetchImpl: FetchLike,
  signal: AbortSignal,
): Promise<ForwardResult> {
  const headers = {
    ...webhookHeaders(request.body, request.secret, { eventId: request.eventId }),
    'user-agent': request.userAgent,
  };
  const timeout = AbortSignal.timeout(FORWARD_TIMEOUT_MS);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    // Redirects are not followed, as the service does not follow them.
    const response = await fetchImpl(request.url, {
      method: 'POST',
      headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.any([timeout, signal]),
    });
    const durationMs = elapsed();
    await response.body?.cancel();
    return { status: response.status, error: undefined, durationMs };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    const durationMs = elapsed();
    const why = timeout.aborted
      ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s`
      : describeNetworkError(error);
    return { status: undefined, error: why, durationMs };
  }
}

/** `<time>  <event name>  <event id>  -> <status or failure> in <ms> ms`, with what the service would make of it. */
export function forwardLine(at: Date, name: string, eventId: string, result: ForwardResult): string {
  const outcome = result.status === undefined ? `failed: ${result.error ?? ''}` : `${result.status}`;
  const note =
    result.status !== 200
      ? ' (not delivered: the service would retry)'
      : result.durationMs > SERVICE_LIMIT_MS
        ? ' (over 1 s: the service would count it as failed and retry)'
        : '';
  return `${at.toISOString()}  ${name.padEnd(18)} ${eventId}  -> ${outcome} in ${result.durationMs} ms${note}`;
}
