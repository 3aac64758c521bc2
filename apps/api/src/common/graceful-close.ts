// Graceful shutdown of the HTTP side (docs/decisions.md, "Operations: graceful shutdown"). On close, Fastify
// stops accepting connections, closes the idle ones and waits for the requests in flight; but a kept-alive
// connection whose request finishes after that stays open until the client's idle timeout, holding the
// shutdown (5 s for Node's agent, a minute behind some proxies). The answers in flight when closing starts
// therefore say Connection: close (a request arriving later gets Fastify's own 503, which says it too). Done
// once, at close, on each connection's current answer, rather than by a hook on every answer: a Fastify
// onSend hook costs its dispatch on every request (for the bearer echo target: docs/decisions.md, "Request
// path: no hook for occasional work").
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

import type { FastifyInstance } from 'fastify';

/** The answer a connection carries now (the last request it brought). */
const CURRENT_ANSWER = Symbol('currentAnswer');

type TrackedSocket = Socket & { [CURRENT_ANSWER]?: ServerResponse };

export function closeConnectionsWhenClosing(fastify: FastifyInstance): void {
  const open = new Set<TrackedSocket>();
  fastify.server.on('connection', (socket: TrackedSocket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  fastify.server.on('request', (request: IncomingMessage, answer: ServerResponse) => {
    (request.socket as TrackedSocket)[CURRENT_ANSWER] = answer;
  });
  fastify.addHook('preClose', (done) => {
    for (const socket of open) {
      const answer = socket[CURRENT_ANSWER];
      // A connection opened but never used: HTTP clients keep a spare one (undici opens one after a request
      // it aborted, as an event stream's client does when it goes away). Node's server.close() counts it as
      // busy and waits for it until the keep-alive timeout (72 s); with no request on it, it goes at once.
      if (!answer) socket.destroy();
      else if (!answer.writableEnded) lastOnItsConnection(answer, socket);
    }
    done();
  });
}

/**
 * The answer closes its connection: it says so when its head is still to be written (Node then closes the
 * connection after it), else the connection is ended once the answer is out.
 */
function lastOnItsConnection(answer: ServerResponse, socket: Socket): void {
  if (!answer.headersSent) answer.setHeader('connection', 'close');
  else answer.once('finish', () => socket.end());
}
