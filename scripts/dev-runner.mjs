#!/usr/bin/env node
// `npm start`'s processes, once the checkout is built (scripts/bootstrap.mjs start runs this after the
// build; run by hand it needs SERVICE_NODE or runs the services on this Node): the development
// PostgreSQL (packages/db/dist/dev-postgres.js) unless DATABASE_URL is set, then the api and the worker,
// each printing its address (the api on PORT, 3000; the worker's /healthz, /readyz, /metrics on
// WORKER_PORT, 3001).
// One `npm start` per data folder (a lock file with its pid). Ctrl-C or SIGTERM stops the services
// gracefully, then PostgreSQL. When any of them ends by itself, it says which and stops the others.
// No dependencies: this file runs before anything is installed.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
/** A service still running this long after SIGTERM is killed: stopping never hangs. */
const STOP_TIMEOUT_MS = 15_000;

/** Runs everything until a signal or a death; resolves with the exit code `npm start` should end with. */
export async function runServices(env) {
  const dataDir = env.DATA_DIR ?? join(root, '.data');
  const lock = takeLock(dataDir);
  if (!lock) return 1;
  try {
    return await run(env);
  } finally {
    lock.release();
  }
}

async function run(env) {
  let stopping = false;
  let code = 0;
  const children = [];
  const stopAll = (signal) => {
    stopping = true;
    return Promise.all(children.map((child) => child.stop(signal)));
  };
  /** Something ended by itself: one line, then everything stops, and `npm start` exits 1. */
  const died = (name) => (how) => {
    if (stopping) return;
    console.error(`npm start: ${name} exited by itself (${how}); stopping everything`);
    code = 1;
    void stopAll('SIGTERM');
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stopAll(signal));

  let databaseUrl = env.DATABASE_URL;
  let postgres;
  if (!databaseUrl) {
    postgres = child('the development PostgreSQL', 'packages/db/dist/dev-postgres.js', env, true);
    databaseUrl = await postgres.url;
    if (!databaseUrl) {
      console.error('npm start: the development PostgreSQL did not start (its lines above say why)');
      return 1;
    }
    postgres.exited.then(died('the development PostgreSQL'));
  }
  const serviceEnv = { ...env, DATABASE_URL: databaseUrl };
  for (const [name, entry] of [
    ['the api', 'apps/api/dist/main.js'],
    ['the webhooks worker', 'apps/webhooks/dist/main.js'],
  ]) {
    const service = child(name, entry, serviceEnv, false);
    service.exited.then(died(name));
    children.push(service);
  }
  if (stopping) await stopAll('SIGTERM');
  await Promise.all(children.map((c) => c.exited));
  // PostgreSQL last, once nothing uses it.
  stopping = true;
  await postgres?.stop('SIGTERM');
  return code;
}

/**
 * A child on the service Node in a process group of its own, so a terminal's Ctrl-C reaches only this
 * script, which passes it on in order. `ipc`: it hands its URL over IPC (dev-postgres).
 */
function child(name, entry, env, ipc) {
  const node = env.SERVICE_NODE ?? process.execPath;
  const proc = spawn(node, [join(root, entry)], {
    cwd: root,
    stdio: ipc ? ['ignore', 'inherit', 'inherit', 'ipc'] : 'inherit',
    env,
    detached: true,
  });
  const exited = new Promise((resolve) =>
    proc.on('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)),
  );
  const url = ipc
    ? new Promise((resolve) => {
        proc.once('message', (message) => resolve(message.url));
        void exited.then(() => resolve(undefined));
      })
    : undefined;
  const running = () => proc.exitCode === null && proc.signalCode === null;
  return {
    name,
    url,
    exited,
    async stop(signal) {
      if (!running()) return;
      proc.kill(signal);
      const timer = setTimeout(() => {
        console.error(`npm start: ${name} did not stop within ${STOP_TIMEOUT_MS / 1000} s; killing it`);
        proc.kill('SIGKILL');
      }, STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** `dataDir/npm-start.lock` holding our pid, or undefined (with one line) when a live one holds it. */
function takeLock(dataDir) {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'npm-start.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return { release: () => rmSync(file, { force: true }) };
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(file, 'utf8').trim());
    if (alive(holder)) {
      console.error(
        `npm start: another npm start (pid ${holder}) is running on ${dataDir}; stop it first, or set DATA_DIR to another folder`,
      );
      return undefined;
    }
    console.error(`npm start: removing the stale lock of pid ${holder || '?'} (${file})`);
    rmSync(file, { force: true });
  }
  return undefined;
}

function alive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = await runServices(process.env);
}
