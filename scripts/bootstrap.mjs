#!/usr/bin/env node
// Brings a machine that has only Node >= 20 and npm to a working checkout, then runs a task: node
// scripts/bootstrap.mjs start|test|bench|soak|pack (`test <tier>`: only that jest project of every package
// that has it: unit, e2e, browser or security). The toolchain pinned in package.json (`toolchain`: pnpm, and
// Node for the services and the test matrix) is installed from the npm registry into .tools/ (git-ignored);
// a second run finds it there and goes straight on. No dependencies: this file (and dev-runner.mjs, which
// runs `start`'s processes) runs before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { runServices } from './dev-runner.mjs';
import { toolPaths } from './tools.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const task = process.argv[2];
const tasks = { start, test, bench, soak, pack };
/** The jest projects a package may have, each run by its package script `test:<tier>`. */
const TEST_TIERS = ['unit', 'e2e', 'browser', 'security'];
const tier = task === 'test' ? process.argv[3] : undefined;

if (!(task in tasks) || (tier !== undefined && !TEST_TIERS.includes(tier))) {
  console.error(`usage: node scripts/bootstrap.mjs <${Object.keys(tasks).join('|')}>`);
  console.error(`       node scripts/bootstrap.mjs test <${TEST_TIERS.join('|')}>`);
  process.exit(2);
}

const started = Date.now();
const env = toolchainEnv();
pnpm(['install', '--frozen-lockfile', '--prefer-offline']);
await tasks[task]();

async function start() {
  pnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
  process.exitCode = await runServices(env);
}

async function test() {
  const results = join(root, '.turbo/test-results');
  rmSync(results, { recursive: true, force: true });
  env.TEST_RESULTS_DIR = results;
  if (tier) {
    // One tier, for a quick answer: its tests only (turbo builds what they need), no formatting or lint.
    pnpm(['exec', 'turbo', 'run', `test:${tier}`, '--continue', '--concurrency=2']);
    summarise(results, `The ${tier} tests of every package`);
    return;
  }
  // The checks that need no build run beside turbo, whose first builds leave a core idle; their output
  // is held until each ends, so that it reads whole (docs/decisions.md, "Toolchain: builds and the test gate").
  const checks = Promise.all([
    held('format', ['exec', 'prettier', '--check', '--log-level=warn', '.']),
    held('lint of the root scripts', ['exec', 'eslint', 'scripts', 'eslint.config.mjs', 'jest.preset.cjs']),
    // The api's floors (README, "The api's floors"): an import that points up fails the run.
    held('floors', [
      'exec',
      'depcruise',
      'apps/api/src',
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'err',
    ]),
  ]);
  // Two tasks at a time: the service tests start PostgreSQL, apps and worker processes, and more at
  // once only makes each wait longer on two cores.
  const turbo = pnpmStatus([
    'exec',
    'turbo',
    'run',
    'build',
    'typecheck',
    'lint',
    'test',
    '--continue',
    '--concurrency=2',
  ]);
  const [failedChecks, turboStatus] = await Promise.all([checks, turbo]);
  const failures = failedChecks.filter((name) => name !== null);
  if (turboStatus !== 0) failures.push(`turbo run build typecheck lint test (exit ${turboStatus})`);
  if (failures.length > 0) fail(`failed: ${failures.join('; ')}`);
  summarise(results, 'All packages, every Node of the matrix');
}

/** Runs pnpm with `args`, its output held and printed when it ends; answers `name` if it failed, else null. */
async function held(name, args) {
  const output = [];
  const status = await pnpmStatus(args, (chunk) => output.push(chunk));
  const text = Buffer.concat(output).toString('utf8').trim();
  if (status !== 0 || text)
    console.log(`\nbootstrap: ${name} (pnpm ${args.slice(1, 2).join(' ')}):\n${text}\n`);
  return status === 0 ? null : name;
}

/**
 * Runs pnpm with `args` and answers its exit status (1 when it cannot start); its output goes to
 * `onOutput` when given, else straight to the terminal.
 */
function pnpmStatus(args, onOutput) {
  return new Promise((resolve) => {
    const child = spawn(env.PNPM_BIN, args, {
      cwd: root,
      env,
      stdio: onOutput ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', onOutput);
    child.on('error', (error) => {
      onOutput?.(Buffer.from(`pnpm: ${error.message}`));
      resolve(1);
    });
    child.on('close', (status) => resolve(status ?? 1));
  });
}

async function bench() {
  pnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
  pnpm(['exec', 'turbo', 'run', 'bench', '--concurrency=1']);
}

/** The long run that crashes the services and PostgreSQL (docs/security.md, "The soak run"); not in test. */
async function soak() {
  pnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
  pnpm(['--filter', '@svc/bench', 'run', 'soak']);
}

/**
 * The @svc/protocol and @svc/sdk tarballs, built and packed into dist-packages/ (git-ignored), for
 * `npm install <file>` in a project outside the workspace (packages/sdk/README.md, "Install").
 */
async function pack() {
  pnpm([
    'exec',
    'turbo',
    'run',
    'build',
    '--filter=@svc/protocol',
    '--filter=@svc/sdk',
    '--output-logs=errors-only',
  ]);
  run(process.execPath, [join(root, 'scripts/pack.mjs'), join(root, 'dist-packages')], env);
}

/** Installs what is missing and returns the environment every later command runs in. */
function toolchainEnv() {
  const { toolchain } = manifest;
  const serviceNode = qualifiesForServices(process.versions.node)
    ? process.execPath
    : nodeBinary(toolchain.node);
  const testNodes = [...new Set(toolchain.testNodes.map(nodeBinary))];
  const pnpmBin = npmPackageBin('pnpm', manifest.toolchain.pnpm, 'pnpm');

  // npm exports its own settings to scripts; pnpm would read them as its own.
  const inherited = Object.entries(process.env).filter(
    ([name]) => !/^npm_(config|package|lifecycle)_/i.test(name),
  );
  return {
    ...Object.fromEntries(inherited),
    PATH: [dirname(serviceNode), dirname(pnpmBin), process.env.PATH].join(delimiter),
    TEST_NODES: testNodes.join(delimiter),
    TURBO_TELEMETRY_DISABLED: '1',
    TURBO_NO_UPDATE_NOTIFIER: '1',
    // The project's .npmrc silences npm's banner for `npm run admin`; pnpm reads it too.
    npm_config_loglevel: 'info',
    PNPM_BIN: pnpmBin,
    SERVICE_NODE: serviceNode,
  };
}

/**
 * TypeORM 1.x and pg-boss 12 need Node ^22.13 or >= 24.11 (docs/decisions.md, "Toolchain: pnpm and Node").
 */
function qualifiesForServices(version) {
  const [major, minor] = version.split('.').map(Number);
  return (major === 22 && minor >= 13) || (major === 24 && minor >= 11) || major > 24;
}

/** The system Node when its major matches `version`, else that exact version from the registry. */
function nodeBinary(version) {
  const [major] = String(version).split('.');
  if (process.versions.node.split('.')[0] === major) return process.execPath;
  return npmPackageBin('node', String(version), 'node');
}

/** Installs name@version under .tools/<name>-<version>/ once; returns the path of its binary. */
function npmPackageBin(name, version, bin) {
  const { prefix, manifest: installed, binary } = toolPaths(root, name, version, bin);
  if (existsSync(installed) && readJson(installed).version === version && existsSync(binary)) {
    return binary;
  }
  console.log(`bootstrap: installing ${name}@${version} into ${prefix}`);
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), '{ "private": true }\n');
  run('npm', [
    'install',
    '--prefix',
    prefix,
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    `${name}@${version}`,
  ]);
  if (!existsSync(binary)) fail(`${name}@${version} installed but ${binary} is missing`);
  return binary;
}

function pnpm(args) {
  run(env.PNPM_BIN, args, env);
}

function run(command, args, childEnv = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: childEnv });
  if (result.error) fail(`${command}: ${result.error.message}`);
  if (result.status !== 0) {
    fail(`${[command.split('/').pop(), ...args].join(' ')} exited with ${result.status ?? result.signal}`);
  }
}

/** One closing line over every jest run (each package, each Node) of this `npm test`. */
function summarise(dir, what) {
  if (!existsSync(dir)) fail('no test results were written: did any test run?');
  let passed = 0;
  let failed = 0;
  for (const file of readdirSync(dir)) {
    const report = readJson(join(dir, file));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`\n${what}, in ${seconds} s:`);
  console.log(`Tests: ${passed} passed, ${failed} failed`);
  if (failed > 0 || passed === 0) process.exit(1);
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function fail(message) {
  console.error(`bootstrap: ${message}`);
  process.exit(1);
}
