// Graceful shutdown of the HTTP side (docs/decisions.md, "Operations"). On close, Fastify stops accepting
// connections, closes the idle ones and waits for the requests in flight; but a kept-alive connection whose
// request finishes after that stays open until the client's idle timeout, holding the shutdown (5 s for
// Node's agent, a minute behind some proxies). Answers sent while closing therefore say Connection: close.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

import type { FastifyInstance } from 'fastify';

export function closeConnectionsWhenClosing(fastify: FastifyInstance): void {
  let closing = false;
  // Connections opened but never used: HTTP clients keep a spare one (undici opens one after a request it
  // aborted, as an event stream's client does when it goes away). Node's server.close() counts them as busy
  // and waits for them until the keep-alive timeout (72 s); with no request on them, they go at once.
  const unused = new Set<Socket>();
  fastify.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  fastify.server.on('request', (request: IncomingMessage) => unused.delete(request.socket));
  fastify.addHook('preClose', (done) => {
    closing = true;
    for (const socket of unused) socket.destroy();
    done();
  });
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
}
