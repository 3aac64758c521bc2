// `svc listen`: follows the organisation's event stream with its credentials and forwards each event to a
// local receiver, signed with a local secret, one line per forward. Runs until its signal aborts, or until
// the stream fails --max-tries times in a row: a listener that cannot reach its api says so and ends.
import { randomBytes } from 'node:crypto';

import type { SvcClient } from '../client.js';
import { SvcAuthenticationError, SvcNotFoundError, SvcPermissionError } from '../errors.js';
import { isTransient } from '../resources/event-stream.js';
import type { FetchLike } from '../transport.js';
import { forward, forwardLine } from './forward.js';
import { eventName, type ListenOptions } from './listen-options.js';

export interface ListenIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Stops listening (Ctrl-C): the exit is then 0. */
  readonly signal: AbortSignal;
  /** For the forwards. Default the global fetch. */
  readonly fetch?: FetchLike;
}

/** A secret as a user would choose one for an endpoint: `whsec_` and 48 hex digits. */
export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString('hex')}`;
}

/** Answers the exit status: 0 when stopped by the signal, 1 when the api refused or failed for good. */
export async function listen(
  client: SvcClient,
  options: ListenOptions,
  io: ListenIo,
  userAgent: string,
): Promise<number> {
  const secret = options.secret ?? generateSecret();
  const fetchImpl = io.fetch ?? globalThis.fetch.bind(globalThis);
  const only = options.events === undefined ? '' : ` (only ${[...options.events].join(', ')})`;
  io.stdout(`Forwarding events to ${options.forwardTo}${only}\n`);
  io.stdout(
    options.secret === undefined
      ? `Webhook signing secret: ${secret}\n`
      : 'Signing with the secret given (--secret or SVC_WEBHOOK_SECRET)\n',
  );
  let lastEventId = options.lastEventId;
  const api = options.client.baseUrl;
  // The stream counts a dropped connection as the first failure of a row, as it counts a refused one.
  const retries = options.maxTries - 1;
  let open = false;
  try {
    const stream = client.events.stream({
      ...(options.since === undefined ? {} : { since: options.since }),
      ...(lastEventId === undefined ? {} : { lastEventId }),
      signal: io.signal,
      maxReconnects: retries,
      onConnect: (info) => {
        open = true;
        io.stderr(
          `Connected to the event stream${info.lastEventId === undefined ? '' : `, resuming after ${info.lastEventId}`}\n`,
        );
      },
      onReconnect: (info) => {
        const why =
          info.error === undefined
            ? 'The api closed the stream'
            : open
              ? `Connection lost: ${info.error.message}`
              : `Could not open the event stream at ${api}: ${info.error.message}`;
        open = false;
        io.stderr(`${why}; retry ${info.attempt} of ${retries} in ${(info.delayMs / 1000).toFixed(1)} s\n`);
      },
    });
    for await (const { id, body, event } of stream) {
      lastEventId = id;
      const name = eventName(event);
      if (options.events !== undefined && !options.events.has(name)) continue;
      const at = new Date();
      const result = await forward(
        { url: options.forwardTo, body, eventId: id, secret, userAgent },
        fetchImpl,
        io.signal,
      );
      io.stdout(`${forwardLine(at, name, id, result)}\n`);
    }
    // Unless aborted, the stream ends only when the api closed it and --max-tries (1) allowed no retry.
    if (!io.signal.aborted) {
      io.stderr(`svc listen: ${givenUp(api, options.maxTries, 'the api closed the stream')}\n`);
      return 1;
    }
  } catch (error) {
    if (!io.signal.aborted) {
      io.stderr(`svc listen: ${describeFailure(error, api, options.maxTries)}\n`);
      return 1;
    }
  }
  io.stderr(`Stopped${lastEventId === undefined ? '' : `; resume with --last-event-id ${lastEventId}`}\n`);
  return 0;
}

function describeFailure(error: unknown, api: string, maxTries: number): string {
  const message = error instanceof Error ? error.message : String(error);
  // The stream throws these only once they have happened maxTries times in a row.
  if (isTransient(error)) return givenUp(api, maxTries, message);
  if (error instanceof SvcPermissionError) {
    const scope = error.requiredScope;
    return `the credentials may not read events${scope === undefined ? '' : ` (they need ${scope})`}: ${message}`;
  }
  if (error instanceof SvcAuthenticationError) return `the api refused the credentials: ${message}`;
  if (error instanceof SvcNotFoundError) {
    return `the api has no event stream (an older version?): ${message}`;
  }
  return message;
}

function givenUp(api: string, maxTries: number, why: string): string {
  const failures = maxTries === 1 ? '1 failure' : `${maxTries} failures in a row`;
  return `gave up on the api at ${api} after ${failures} (--max-tries): ${why}`;
}
