// Checked before anything is timed: the same order requests sent to every candidate, each on its own
// database seeded alike (so the user is in the same state everywhere), must come back the same, field by
// field, with every amount written with the same digits. The reference writes its own SQL and arithmetic
// (lib/bare-orders.mjs); this is what keeps it from drifting away from the api unnoticed.
import { randomUUID } from 'node:crypto';

import { call, signedHeaders } from './seed.mjs';

/** The user the cases trade for; seeded with the others, used by nothing else. */
export const CHECK_USER = 'equivalence-check';

const ORDER_PATH = '/api/v1/orders/';

// In order, on one user: fills by quantity and by quoteQuantity on both sides and both pairs (amounts
// whose products need rounding), then the rejections the seeded policy and prices can give. Each case
// says what the api must answer too, so a change that made every candidate reject alike would not pass.
const CASES = [
  { side: 'BUY', symbol: 'BTC_EUR', quantity: 0.00123456, expect: 'COMPLETED' },
  { side: 'BUY', symbol: 'ETH_EUR', quoteQuantity: 25.5, expect: 'COMPLETED' },
  { side: 'BUY', symbol: 'ETH_EUR', quantity: 0.33333333, expect: 'COMPLETED' },
  { side: 'SELL', symbol: 'BTC_EUR', quantity: 0.00100001, expect: 'COMPLETED' },
  { side: 'SELL', symbol: 'ETH_EUR', quoteQuantity: 10.01, expect: 'COMPLETED' },
  { side: 'SELL', symbol: 'BTC_EUR', quantity: 1, expect: 'INSUFFICIENT_HOLDINGS' },
  { side: 'BUY', symbol: 'BTC_EUR', quoteQuantity: 2000000, expect: 'QUOTE_LIMIT' },
  { side: 'BUY', symbol: 'BTC_EUR', quoteQuantity: 0.00000001, expect: 'AMOUNT_TOO_SMALL' },
  { side: 'BUY', symbol: 'XRP_EUR', quantity: 1, expect: 'ASSET_NOT_ENABLED' },
];

/** Each database's own: the row id, the organisation's id and the timestamps. */
const OWN_FIELDS = new Set(['id', 'orgId', 'createdAt', 'updatedAt']);

/** Throws, naming every difference, unless all `servers` answer every case alike. */
export async function checkOrderEquivalence(servers) {
  const requests = CASES.map(({ side, symbol, quantity, quoteQuantity }) => ({
    orgUserId: CHECK_USER,
    clientOrderId: randomUUID(),
    symbol,
    side,
    type: 'MARKET',
    ...(quantity === undefined ? { quoteQuantity } : { quantity }),
  }));
  const answers = [];
  for (const server of servers) {
    const records = [];
    for (const request of requests) records.push(await place(server, request));
    answers.push(records);
  }
  const [reference, ...others] = answers;
  const problems = [];
  CASES.forEach(({ expect }, i) => {
    const outcome = reference[i].rejectionReason ?? reference[i].status;
    if (outcome !== expect)
      problems.push(`case ${i + 1}: ${servers[0].name} answered ${outcome}, not ${expect}`);
  });
  others.forEach((records, k) => {
    records.forEach((record, i) => {
      const fields = new Set([...Object.keys(reference[i]), ...Object.keys(record)]);
      for (const field of fields) {
        if (OWN_FIELDS.has(field) || record[field] === reference[i][field]) continue;
        problems.push(
          `case ${i + 1} (${JSON.stringify(requests[i])}): ${field} is ${record[field]} from ` +
            `${servers[k + 1].name}, ${reference[i][field]} from ${servers[0].name}`,
        );
      }
    });
  });
  if (problems.length > 0) {
    throw new Error(`the candidates do not answer orders alike:\n  ${problems.join('\n  ')}`);
  }
  console.log(
    `orders: ${servers.map((server) => server.name).join(' and ')} answered ${CASES.length} orders alike ` +
      `(${CASES.map((c) => c.expect).join(', ')})`,
  );
}

/** The order record answered, every number kept as the text sent (JSON.parse would round it). */
async function place({ port, credentials }, request) {
  const body = JSON.stringify(request);
  return call(`http://127.0.0.1:${port}`, 'POST', ORDER_PATH, {
    headers: signedHeaders(credentials, ORDER_PATH, body),
    body,
    reviver: (_key, value, context) => (typeof value === 'number' ? context.source : value),
  });
}
