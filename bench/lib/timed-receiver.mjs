// The webhooks bench's receiver, in a process of its own (forked by bench/webhooks.bench.mjs): answers 200
// at once, times the first arrival of each svc-event-id on the machine's clock (performance.timeOrigin +
// now, comparable across processes), and verifies one request in 100. In the bench's own process its
// timestamps waited for the producer's work there, which counted in the latencies of every candidate.
// Messages: { id, op: 'count' } -> the events received; { id, op: 'times', ids } -> their arrival times
// (null when not received); { id, op: 'clear' }; { id, op: 'badSignatures' }.
import { createServer } from 'node:http';

import { verifyWebhookRequest } from '@svc/protocol';

const secret = process.argv[2];
const received = new Map();
let requests = 0;
let badSignatures = 0;

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const id = request.headers['svc-event-id'];
    if (!received.has(id)) received.set(id, performance.timeOrigin + performance.now());
    response.writeHead(200).end();
    if (requests++ % 100 === 0 && !verifyWebhookRequest(Buffer.concat(chunks), request.headers, secret).ok)
      badSignatures++;
  });
});
server.keepAliveTimeout = 10_000;

const answers = {
  count: () => received.size,
  times: ({ ids }) => ids.map((id) => received.get(id) ?? null),
  clear: () => received.clear(),
  badSignatures: () => badSignatures,
};
process.on('message', (message) => process.send({ id: message.id, value: answers[message.op](message) }));
process.on('disconnect', () => {
  server.closeAllConnections();
  server.close();
});
server.listen(0, '127.0.0.1', () => process.send({ ready: server.address().port }));
