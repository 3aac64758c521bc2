// Graceful shutdown of the HTTP side (docs/decisions.md, "Operations"). On close, Fastify stops accepting
// connections, closes the idle ones and waits for the requests in flight; but a kept-alive connection whose
// request finishes after that stays open until the client's idle timeout, holding the shutdown (5 s for
// Node's agent, a minute behind some proxies). Answers sent while closing therefore say Connection: close.
import type { FastifyInstance } from 'fastify';

export function closeConnectionsWhenClosing(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
}
