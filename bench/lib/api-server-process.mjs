// An api (or the bare reference) in a child process (lib/api-server.mjs), so that the load generator in the
// bench process never shares an event loop with the server it measures.
import { fork } from 'node:child_process';

/**
 * Starts `candidate` ('api' or 'bare') on the database at `url` with `env`; `cpuProfileDir` runs it with
 * --cpu-prof. Answers its port, its CPU time so far (microseconds, over IPC) and a stop.
 */
export async function startApiServer(url, env, { candidate = 'api', cpuProfileDir } = {}) {
  const child = fork(new URL('./api-server.mjs', import.meta.url), [candidate], {
    env: { ...process.env, ...env, DATABASE_URL: url },
    execArgv: cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message.port));
    child.once('exit', (code) =>
      reject(new Error(`the ${candidate} server exited (${code}) before it was ready`)),
    );
  });
  child.removeAllListeners('exit');
  return {
    port,
    pid: child.pid,
    /** The child's CPU time so far, in microseconds. */
    cpu: () =>
      new Promise((resolve) => {
        child.once('message', (message) => resolve(message.cpu));
        child.send('cpu');
      }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.send('stop');
      }),
  };
}
