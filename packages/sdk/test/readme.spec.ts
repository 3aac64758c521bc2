// The README's examples are type-checked against the built package, so they cannot rot: every `ts` block
// becomes a file of an ESM consumer project (top-level await allowed) and tsc must accept all of them.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { consumer, packageDir, typeCheck } from './support/consumer.js';

const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);

describe('README.md examples', () => {
  it('has examples of the client, lists, errors, retries, webhooks and the event stream', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    const all = blocks.join('\n');
    for (const api of [
      'new SvcClient',
      'for await',
      'SvcConflictError',
      'createWebhookHandler',
      'verifyWebhook',
      'testWebhook',
      'events.stream',
    ]) {
      expect(all).toContain(api);
    }
  });

  it('type-checks every example against the built package', () => {
    const files = Object.fromEntries(
      blocks.map((source, index) => [`example-${index + 1}.ts`, `${source}\nexport {};\n`]),
    );
    const dir = consumer('module', files);
    try {
      expect(typeCheck(dir)).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('would notice a broken example', () => {
    const dir = consumer('module', {
      'broken.ts':
        "import { SvcClient } from '@svc/sdk';\ndeclare const c: SvcClient;\nawait c.users.remove('x');\nexport {};\n",
    });
    try {
      expect(typeCheck(dir)).toMatch(/Property 'remove' does not exist/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
