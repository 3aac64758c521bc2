#!/usr/bin/env node
// Retakes the pictures of the operator console in docs/console/ (shown in the README and docs/console.md):
// runs the console's browser tests (apps/api/test/console*.browser.spec.ts)
// with SCREENSHOTS set, which saves a picture of each page they check. Needs a built checkout (`npm test` or
// `pnpm exec turbo run build`: the KYC test spawns the built webhook worker) and Node >= 24.9 (set
// SERVICE_NODE to it when the system Node is older, as npm test does).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'docs', 'console');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const node = process.env.SERVICE_NODE ?? process.execPath;
const result = spawnSync(
  node,
  [
    join(root, 'scripts', 'jest.mjs'),
    '--vm-modules',
    'test/console.browser.spec.ts',
    'test/console-kyc.browser.spec.ts',
    'test/console-kyc-documents.browser.spec.ts',
    'test/console-admin.browser.spec.ts',
  ],
  { cwd: join(root, 'apps', 'api'), stdio: 'inherit', env: { ...process.env, SCREENSHOTS: out } },
);
if (result.status !== 0) process.exit(result.status ?? 1);
console.log(`${readdirSync(out).length} pictures in ${out}`);
