// What the soak run sees from the outside: the webhook receiver (every delivery verified and recorded by its
// svc-event-id) and the event stream follower (every event id in the order it arrived, across reconnects).
import { createServer } from 'node:http';

import { isChallenge, verifyWebhookRequest } from '@svc/protocol';

/**
 * A webhook receiver on loopback (localhost) that verifies each request with `secret`, answers the registration
 * challenge, and records every delivery. The first attempt of one event in 16 (its id ending in 0) is
 * answered 500, so that the worker's retries are part of the run; its retry is taken.
 */
export async function startReceiver(secret) {
  /** Per event id: the bodies of the attempts answered 200, and how many were answered 500 on purpose. */
  const deliveries = new Map();
  const counts = { requests: 0, challenges: 0, refusedOnPurpose: 0, badSignatures: 0 };
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      counts.requests++;
      const body = Buffer.concat(chunks);
      if (!verifyWebhookRequest(body, request.headers, secret).ok) {
        counts.badSignatures++;
        return response.writeHead(400).end();
      }
      const text = body.toString('utf8');
      const message = JSON.parse(text);
      if (isChallenge(message)) {
        counts.challenges++;
        return response.writeHead(200).end(message.challenge);
      }
      const id = String(request.headers['svc-event-id']);
      let seen = deliveries.get(id);
      if (!seen) deliveries.set(id, (seen = { bodies: [], refused: 0 }));
      if (id.endsWith('0') && seen.refused === 0 && seen.bodies.length === 0) {
        seen.refused++;
        counts.refusedOnPurpose++;
        return response.writeHead(500).end();
      }
      seen.bodies.push(text);
      response.writeHead(200).end();
    });
  });
  // On the address `localhost` resolves to first, as the worker's lookup will (the organisation's kycDomain
  // is localhost: a webhook's host must be it).
  await new Promise((resolve) => server.listen(0, 'localhost', resolve));
  return {
    url: `http://localhost:${server.address().port}/hook`,
    deliveries,
    counts,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * Follows the organisation's event stream with the SDK's reader, which reconnects with Last-Event-ID after
 * every drop; records each event's id and body in arrival order. A refusal the reader does not retry (it
 * throws) is counted and followed by a new reader resuming after the last event received.
 */
export function followStream(client, since) {
  const events = [];
  const counts = { connections: 0, reconnects: 0, readerErrors: 0 };
  const stop = new AbortController();
  const done = (async () => {
    while (!stop.signal.aborted) {
      const last = events.at(-1)?.id;
      try {
        for await (const event of client.events.stream({
          ...(last === undefined ? { since } : { lastEventId: last }),
          signal: stop.signal,
          onConnect: () => counts.connections++,
          onReconnect: () => counts.reconnects++,
        })) {
          events.push({ id: event.id, body: event.body });
        }
      } catch (error) {
        counts.readerErrors++;
        const from = events.at(-1)?.id ?? since;
        console.error(`soak: the stream reader failed (${error.message}); resuming after ${from}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  })();
  return {
    events,
    counts,
    async stop() {
      stop.abort();
      await done;
    },
  };
}
