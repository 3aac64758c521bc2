#!/usr/bin/env node
// Packs the published packages, @svc/protocol and @svc/sdk, from their builds into one folder:
// node scripts/pack.mjs <folder>. `npm run pack` builds them first and packs into dist-packages/.
// `pnpm pack` writes each `workspace:` range as the range it stands for at the version being packed
// (`workspace:^` becomes `^0.1.0`), so the tarballs install together with plain `npm install <file>`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
/** The protocol first: the SDK depends on it. */
const PACKAGES = ['protocol', 'sdk'];

const [destination] = process.argv.slice(2);
if (destination === undefined) {
  console.error('usage: node scripts/pack.mjs <folder>');
  process.exit(2);
}
const folder = resolve(destination);
mkdirSync(folder, { recursive: true });

const tarballs = PACKAGES.map((name) => {
  // An earlier version's tarball would sit next to the new one and be installed by mistake.
  for (const file of readdirSync(folder)) {
    if (file.startsWith(`svc-${name}-`) && file.endsWith('.tgz')) rmSync(join(folder, file));
  }
  const packed = spawnSync(process.env.PNPM_BIN ?? 'pnpm', ['pack', '--json', '--pack-destination', folder], {
    cwd: join(root, 'packages', name),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (packed.error || packed.status !== 0) {
    console.error(`pack: pnpm pack of @svc/${name} failed: ${packed.error?.message ?? packed.stdout}`);
    process.exit(1);
  }
  return JSON.parse(packed.stdout).filename;
});

console.log(`Packed into ${folder}:`);
for (const tarball of tarballs) console.log(`  ${tarball.slice(folder.length + 1)}`);
console.log(`Install both together in your project (the SDK needs this protocol):`);
console.log(`  npm install ${tarballs.join(' ')}`);
