// The built package, as a consumer meets it: require() and import() on this Node, and TypeScript
// resolving the right declaration files for each (exports map with `types` first).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { consumer, packageDir, typeCheck } from './support/consumer.js';

const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
};

const usage = `
import { SvcClient, SvcError, SvcRateLimitError, verifyWebhook, type Order, type Scope } from '@svc/sdk';
const client = new SvcClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'pk', apiSecret: 'sk' });
const scope: Scope = 'BASE_MODULE:READ';
// @ts-expect-error the types are real: a misspelt scope does not type-check
const wrong: Scope = 'BASE_MODULE:ADMIN';
// @ts-expect-error both amounts at once is not a valid order
void client.orders.create({ orgUserId: 'u', symbol: 'BTC_EUR', side: 'BUY', type: 'MARKET', quantity: 1, quoteQuantity: 1 });
export async function f(): Promise<number> {
  const order: Order = await client.orders.get(1);
  const error: SvcError = new SvcRateLimitError('x', { method: 'GET', path: '/', retryAfter: 1 });
  return order.id + (error.status ?? 0);
}
export const used = [scope, wrong, verifyWebhook];
`;

/** The same few calls, printed as JSON, whichever way `sdk` was loaded. */
const probe = `
const { body, headers } = sdk.testWebhook({ challenge: 'c' }, 'whsec_0123456789abcdef', { timestamp: 1, eventId: 'e' });
const message = sdk.verifyWebhookMessage(body, headers, 'whsec_0123456789abcdef', { now: 1 });
const error = new sdk.SvcRateLimitError('x', { method: 'GET', path: '/', retryAfter: 2 });
console.log(JSON.stringify([
  message,
  headers['svc-signature'],
  error instanceof sdk.SvcError, error.retryAfter,
  typeof sdk.SvcClient, typeof sdk.createWebhookHandler,
  Object.keys(sdk).sort().join(),
]));`;

describe('the built package', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('lists `types` first in every condition of the exports map, and depends on the protocol and the SSE parser only', () => {
    const root = manifest.exports['.'] as Record<string, Record<string, string>>;
    expect(Object.keys(root)).toEqual(['import', 'require']);
    for (const condition of Object.values(root)) expect(Object.keys(condition)[0]).toBe('types');
    expect(manifest.dependencies).toEqual({ '@svc/protocol': 'workspace:^', 'eventsource-parser': '3.1.1' });
  });

  it('loads with require() and with import(), and both give the same API and results', () => {
    const dir = consumer('commonjs', { 'index.ts': usage });
    dirs.push(dir);
    const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: dir, encoding: 'utf8' });
    const viaRequire = node(['-e', `const sdk = require('@svc/sdk'); ${probe}`]);
    const viaImport = node(['--input-type=module', '-e', `import * as sdk from '@svc/sdk'; ${probe}`]);
    const [message, signature, isBase, retryAfter, client, handler, names] = JSON.parse(
      viaRequire,
    ) as unknown[];
    expect(message).toEqual({ type: 'challenge', challenge: 'c' });
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect([isBase, retryAfter, client, handler]).toEqual([true, 2, 'function', 'function']);
    expect(String(names)).toContain('SvcTimeoutError');
    expect(viaImport).toBe(viaRequire);
  });

  it.each([
    ['module', 'dist/esm/index.d.ts'],
    ['commonjs', 'dist/cjs/index.d.ts'],
  ] as const)('type-checks in a %s consumer against %s', (type, declarations) => {
    const dir = consumer(type, { 'index.ts': usage });
    dirs.push(dir);
    const output = typeCheck(dir, ['--listFiles']);
    expect(output).not.toMatch(/error TS/);
    // TypeScript lists the file by its real path, behind the symlink.
    expect(output.split('\n')).toContain(join(packageDir, declarations));
  });
});
