// Canonicalise + sign + verify of a request (what the SDK and the HMAC guard do per call), against the
// naive and wrong JSON.parse + JSON.stringify + HMAC path, on a typical 300-byte body and a 4 KB one.
// Run: npm run bench (or, after a build, node bench/protocol.bench.mjs). Target: ratio >= 0.5 at 300 B.
import { createHmac, timingSafeEqual } from 'node:crypto';

import { signRequest, verifyRequest } from '@svc/protocol';

import { formatOps, measure } from './lib/harness.mjs';

const secret = 'a3f1c9e07b5d4e2f8a6b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f';
const path = '/api/v1/orders/';
const timestamp = '1795000000';
const now = Number(timestamp) * 1000;

const order = (i) =>
  `{"orgUserId":"user-${1000 + i}","clientOrderId":"6f1c2b7e-3d4a-4c5b-9e8f-0a1b2c3d${String(4000 + i)}",` +
  `"symbol":"BTC_EUR","side":"BUY","type":"MARKET","quoteQuantity":55000.00,"price":55.50,` +
  `"metadata":{"10":"ten","2":"two","channel":"mobile-app","note":"weekly savings plan / auto-invest 2026"},"tags":["dca","retail"]}`;
const bodies = {
  '300 B': order(1),
  '4 KB': `{"batch":[${Array.from({ length: 14 }, (_, i) => order(i)).join(',')}]}`,
};

function naiveSign(body) {
  const message = `{"body":${JSON.stringify(JSON.parse(body))},"query":{},"url":${JSON.stringify(path)},"ts":"${timestamp}"}`;
  return createHmac('sha256', secret).update(message).digest('hex');
}

const rows = [];
for (const [label, body] of Object.entries(bodies)) {
  const request = { path, body, timestamp };
  const ops = measure({
    protocol() {
      const signature = signRequest(request, secret);
      if (!verifyRequest({ ...request, signature }, secret, { now }).ok)
        throw new Error('verification failed');
    },
    naive() {
      const signature = naiveSign(body);
      const expected = Buffer.from(naiveSign(body));
      if (!timingSafeEqual(expected, Buffer.from(signature))) throw new Error('verification failed');
    },
  });
  rows.push({
    body: `${label} (${Buffer.byteLength(body)} bytes)`,
    'protocol ops/s': formatOps(ops.protocol),
    'naive ops/s': formatOps(ops.naive),
    ratio: (ops.protocol / ops.naive).toFixed(2),
  });
}

console.log(`canonicalise + sign + verify, Node ${process.version}, median of 7 interleaved rounds`);
console.table(rows);
const small = Number(rows[0].ratio);
console.log(`target: ratio >= 0.5 on the 300-byte body: ${small >= 0.5 ? 'met' : 'NOT met'} (${small})`);
