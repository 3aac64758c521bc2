// Jest globalSetup: starts test/support/services.mjs on the services' Node (the api and the worker need
// Node 24; the SDK's tests run on 20 and 24) and hands its credentials to the test files through
// SDK_TEST_SERVICES. The teardown stops it.
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Services } from './fixture.js';

const ROOT = join(__dirname, '..', '..', '..', '..');

/** SERVICE_NODE (set by scripts/bootstrap.mjs), else this Node if it can run them, else the toolchain's. */
export function serviceNode(): string {
  if (process.env.SERVICE_NODE) return process.env.SERVICE_NODE;
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if ((major === 22 && minor >= 13) || (major === 24 && minor >= 11) || major > 24) return process.execPath;
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    toolchain: { node: string };
  };
  const node = join(ROOT, '.tools', `node-${manifest.toolchain.node}`, 'node_modules', '.bin', 'node');
  if (!existsSync(node))
    throw new Error(`no Node for the services: set SERVICE_NODE or run npm test once (${node})`);
  return node;
}

export default async function globalSetup(): Promise<void> {
  for (const built of ['apps/api/dist/main.js', 'apps/webhooks/dist/main.js']) {
    if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: build the workspace first`);
  }
  const child = fork(join(__dirname, 'services.mjs'), [], {
    execPath: serviceNode(),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const services = await new Promise<Services>((resolve, reject) => {
    child.once('message', (message: { ready?: Services }) => {
      if (message.ready) resolve(message.ready);
    });
    child.once('exit', (code) =>
      reject(new Error(`the test services exited (${String(code)}) before they were ready`)),
    );
  });
  process.env.SDK_TEST_SERVICES = JSON.stringify(services);
  (globalThis as { sdkServices?: ChildProcess }).sdkServices = child;
}
