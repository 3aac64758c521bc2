#!/usr/bin/env node
// `npm run admin`: runs the built admin CLI (apps/api/dist/cli/admin.js), or says how to build it when
// it is not built yet, instead of Node's "Cannot find module" stack. The CLI writes and reads amounts
// digit for digit with JSON.rawJSON and JSON.parse's source text (Node 21 and later): on an older Node (the
// README's minimum is 20) it runs on the toolchain's Node, which `npm start` installs into .tools/ for the
// services, as `npm start` runs them.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'apps', 'api', 'dist', 'cli', 'admin.js');

if (!existsSync(cli)) {
  process.stderr.write(
    'admin: the CLI is not built yet: run `npm start` or `npm test` once (or `pnpm turbo run build`), ' +
      'then `npm run admin -- --help`\n',
  );
  process.exitCode = 1;
} else if (typeof JSON.rawJSON === 'function') {
  // The CLI reads process.argv itself: the arguments after this script's are the same.
  await import(pathToFileURL(cli).href);
} else {
  await runOnToolchainNode();
}

async function runOnToolchainNode() {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).toolchain.node;
  const { toolPaths } = await import('./tools.mjs');
  const { binary } = toolPaths(root, 'node', version, 'node');
  if (!existsSync(binary)) {
    process.stderr.write(
      `admin: the CLI needs Node 22 or later (this is ${process.version}): run \`npm start\` or ` +
        `\`npm test\` once, which installs Node ${version} into .tools/, or run it with a newer Node\n`,
    );
    process.exitCode = 1;
    return;
  }
  const child = spawn(binary, [cli, ...process.argv.slice(2)], { stdio: 'inherit' });
  // Ctrl-C reaches the child itself (same process group): this one waits for its end. A SIGTERM is passed on.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  const [code, signal] = await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (...ended) => resolve(ended));
  });
  process.exitCode = signal ? 1 : code;
}
