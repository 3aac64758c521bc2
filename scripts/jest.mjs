#!/usr/bin/env node
// Runs jest for the package in the current directory. With --matrix it runs once on every Node of
// TEST_NODES (set by bootstrap: the supported majors for libraries), else on the current Node only.
// With --vm-modules, jest may load ESM-only dependencies (NestJS 12, pg-boss): that needs Node's
// --experimental-vm-modules (Node >= 24.9).
// Each run's report goes to TEST_RESULTS_DIR, where bootstrap sums them into one closing line.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

const args = process.argv.slice(2);
const matrix = args.includes('--matrix');
const vmModules = args.includes('--vm-modules');
const jestArgs = args.filter((arg) => arg !== '--matrix' && arg !== '--vm-modules');
const nodeFlags = vmModules ? ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning'] : [];
const nodes = matrix && process.env.TEST_NODES ? process.env.TEST_NODES.split(delimiter) : [process.execPath];
const jestBin = createRequire(join(process.cwd(), 'package.json')).resolve('jest/bin/jest');
const pkg = JSON.parse(readFileSync('package.json', 'utf8')).name.replace(/[@/]/g, '_');
const resultsDir = process.env.TEST_RESULTS_DIR;

let status = 0;
for (const node of nodes) {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`\n${pkg}: jest on Node ${version}`);
  const report = [];
  if (resultsDir) {
    mkdirSync(resultsDir, { recursive: true });
    report.push('--json', `--outputFile=${join(resultsDir, `${pkg}-node-${version}.json`)}`);
  }
  const result = spawnSync(node, [...nodeFlags, jestBin, ...report, ...jestArgs], { stdio: 'inherit' });
  status ||= result.status ?? 1;
}
process.exit(status);
