// The processes the soak run starts, crashes and starts again: the embedded PostgreSQL (stopped the way a
// crash stops it, then restarted on the same folder and port, so the services' DATABASE_URL holds), and the
// api and the webhooks worker as child processes on the service Node, each killed with SIGKILL and started
// again. Their output goes to log files in the run's folder, so that the soak's own lines stay readable.
import { spawn } from 'node:child_process';
import { createWriteStream, openSync, closeSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { startEmbeddedPostgres } from '@svc/db/dev';

/** A service not ready this long after it was spawned counts as a failed start. */
const READY_TIMEOUT_MS = 30_000;
/** Between a service's failed start (PostgreSQL away) and the next one. */
const RESTART_PAUSE_MS = 1000;
/**
 * Failed starts in a row after which the run gives up: PostgreSQL is down for seconds at most, so more
 * means the service cannot start at all (a configuration it refuses), which its log says.
 */
const MAX_FAILED_STARTS_IN_A_ROW = 20;

/**
 * The embedded PostgreSQL in `dir`, restartable after a crash. `crash('immediate')` is `pg_ctl stop -m
 * immediate` (SIGQUIT to the postmaster: no checkpoint, crash recovery at the next start); `crash('kill')`
 * is SIGKILL to the postmaster and every one of its processes at once, as a machine that loses power.
 */
export async function startDatabase(dir, logFile) {
  const log = createWriteStream(logFile, { flags: 'a' });
  const options = { dir, onLog: (line) => log.write(line) };
  let server = await startEmbeddedPostgres(options);
  const { port } = server;
  let restarts = 0;
  return {
    port,
    url: (database) => server.url(database),
    get restarts() {
      return restarts;
    },
    async crash(how) {
      const postmaster = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const family = [postmaster, ...descendants(postmaster)];
      if (how === 'kill') for (const pid of family) signal(pid, 'SIGKILL');
      else signal(postmaster, 'SIGQUIT');
      // A new postmaster refuses to start while an old backend still holds the shared memory.
      while (family.some(alive)) await sleep(50);
    },
    /** Starts PostgreSQL again on the same folder and port; tries until it is up. */
    async restart() {
      for (;;) {
        try {
          server = await startEmbeddedPostgres({ ...options, port });
          restarts++;
          return;
        } catch (error) {
          log.write(`soak: restart failed: ${error.message}\n`);
          await sleep(RESTART_PAUSE_MS);
        }
      }
    },
    async stop() {
      await server.stop();
      log.end();
    },
  };
}

/**
 * One service (`entry`, a built main.js) as a child process, kept running: started again after our
 * SIGKILL, after a start that failed (PostgreSQL away while it started) and after an exit of its own, each
 * counted. Ready means `readyUrl` (its /readyz) answers 200: started, PostgreSQL reachable. Not /healthz:
 * the worker answers that before its queue has started, and a start that fails after it is no crash.
 */
export function supervise(name, { node, entry, env, logFile, readyUrl }) {
  const counts = { kills: 0, failedStarts: 0, exitsOfItsOwn: 0 };
  let child;
  let stopping = false;
  let starting;

  function spawnOnce() {
    const out = openSync(logFile, 'a');
    const proc = spawn(node, [entry], { env, stdio: ['ignore', out, out] });
    closeSync(out);
    proc.exited = new Promise((resolve) => proc.once('exit', (code, sig) => resolve(sig ?? code)));
    return proc;
  }

  /** Spawns until one start is ready; resolves then. Throws after too many failed starts in a row. */
  async function start() {
    for (let failed = 0; ; failed++) {
      if (failed === MAX_FAILED_STARTS_IN_A_ROW)
        throw new Error(`the ${name} failed to start ${failed} times in a row: see ${logFile}`);
      const proc = spawnOnce();
      const outcome = await Promise.race([
        waitForReady(readyUrl, READY_TIMEOUT_MS).then((ok) => (ok ? 'ready' : 'timeout')),
        proc.exited.then(() => 'exited'),
      ]);
      if (outcome === 'ready') {
        child = proc;
        void proc.exited.then((how) => {
          if (stopping || proc.killedBySoak) return;
          counts.exitsOfItsOwn++;
          console.error(`soak: the ${name} exited by itself (${how}); starting it again`);
          starting = start();
        });
        return;
      }
      if (outcome === 'timeout') {
        proc.kill('SIGKILL');
        await proc.exited;
      }
      counts.failedStarts++;
      if (stopping) return;
      await sleep(RESTART_PAUSE_MS);
    }
  }

  return {
    name,
    counts,
    async start() {
      starting = start();
      await starting;
    },
    /** Waits for a start under way (after a kill or an exit of its own) to be ready. */
    async ready() {
      await starting;
    },
    /** SIGKILL, then a new process; resolves once the new one is ready. */
    async kill() {
      await starting;
      const proc = child;
      proc.killedBySoak = true;
      proc.kill('SIGKILL');
      await proc.exited;
      counts.kills++;
      starting = start();
      await starting;
    },
    async stop() {
      stopping = true;
      await starting;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await child.exited;
      clearTimeout(timer);
    },
  };
}

/** Whether `url` answers 200 within `timeoutMs`, asked every 100 ms. */
async function waitForReady(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.status === 200) return true;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  return false;
}

/** Every process below `pid`, from /proc (Linux). */
function descendants(pid) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name is in parentheses and may hold spaces: the fields after it are fixed.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // Gone meanwhile.
    }
  }
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch (error) {
    if (error.code !== 'ESRCH') throw error;
  }
}

/** Whether `pid` runs: a zombie (ended, not yet reaped by a parent that may never reap it) does not. */
function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
