// What the HTTP benchmarks share: a candidate server in a child process (lib/api-server.mjs) and one
// autocannon load against it. autocannon runs in the parent: on 2 cores the load generator and the server
// then never share an event loop, and every candidate faces the same load generator.
import { execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';

import autocannon from 'autocannon';

// The protocol bench's typical order request: integer-like keys, 55000.00, 55.50, a slash.
export const ECHO_BODY =
  '{"orgUserId":"user-1001","clientOrderId":"6f1c2b7e-3d4a-4c5b-9e8f-0a1b2c3d4001",' +
  '"symbol":"BTC_EUR","side":"BUY","type":"MARKET","quoteQuantity":55000.00,"price":55.50,' +
  '"metadata":{"10":"ten","2":"two","channel":"mobile-app","note":"weekly savings plan / auto-invest 2026"},"tags":["dca","retail"]}';

/**
 * The environment of an api candidate: production, a fresh master key and admin token, no line per request
 * (LOG_LEVEL warn: the references write none), the bootstrap operator's step-up long enough for the
 * seeding; `more` on top.
 */
export function apiEnv(more = {}) {
  return {
    NODE_ENV: 'production',
    // Production requires it; no bench follows a link the api hands out.
    PUBLIC_URL: 'http://127.0.0.1',
    MASTER_KEY: randomBytes(32).toString('base64'),
    ADMIN_TOKEN: randomBytes(24).toString('hex'),
    OPERATOR_STEP_UP_MINUTES: '60',
    LOG_LEVEL: 'warn',
    ...more,
  };
}

/**
 * BENCH_PIN=<cpu list> (Linux, `taskset`): every candidate server runs on those CPUs alone, its threads
 * included. Run the bench itself on the others (`taskset -c 0 node bench/x.bench.mjs` with BENCH_PIN=1),
 * so that PostgreSQL and the load generator, which inherit the bench's CPUs, never take the server's.
 */
const PINNED_CPUS = process.env.BENCH_PIN;

function pin(pid, cpus) {
  execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpus, String(pid)], { stdio: 'ignore' });
}

/**
 * One candidate server (`node lib/<script> <candidate>`, lib/api-server.mjs unless said) in a child process
 * on the database at `url`, with `env`; `cpuProfDir` runs it with --cpu-prof (a .cpuprofile written when
 * it stops). The script sends its port once listening, and answers 'cpu' (its CPU time) and 'stop'.
 */
export async function startServer(candidate, { url, env, cpuProfDir, script = 'api-server.mjs' }) {
  const child = fork(new URL(`./${script}`, import.meta.url), [candidate], {
    env: { ...process.env, ...env, DATABASE_URL: url },
    execArgv: cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message.port));
    child.once('exit', (code) =>
      reject(new Error(`the ${candidate} server exited (${code}) before it was ready`)),
    );
  });
  child.removeAllListeners('exit');
  if (PINNED_CPUS) pin(child.pid, PINNED_CPUS);
  const cpuTimes = () =>
    new Promise((resolve) => {
      child.once('message', ({ cpu, user, system }) => resolve({ cpu, user, system }));
      child.send('cpu');
    });
  return {
    port,
    pid: child.pid,
    /** The child's CPU time so far, in microseconds. */
    cpu: async () => (await cpuTimes()).cpu,
    /** The same with its user and system parts: { cpu, user, system }. */
    cpuTimes,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.send('stop');
      }),
  };
}

/**
 * `requests` against `port` for `seconds` over `connections`; any answer but a 2xx aborts the run.
 * Answers the 2xx count, req/s and the p50 and p99 latencies in ms.
 */
export async function load({ port, requests }, { seconds, connections }) {
  // Latencies kept here at full resolution (autocannon's histogram rounds to whole milliseconds).
  const times = [];
  const instance = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests,
  });
  instance.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  const result = await instance;
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) {
    throw new Error(
      `${failed} failed requests on port ${port} (non-2xx ${result.non2xx}, errors ${result.errors}, ` +
        `timeouts ${result.timeouts}): the candidates must answer every request`,
    );
  }
  const sorted = Float64Array.from(times).sort();
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { count: result['2xx'], rps: result['2xx'] / result.duration, p50: at(0.5), p99: at(0.99) };
}

/**
 * `load`, with the server's CPU time per answered request (µs) over it: less moved than req/s by the
 * machine's other load. `userCpuPerRequest` is its user part alone: the framework's and our code's work,
 * without the kernel's time in the socket calls, which moves with what the load generator does.
 */
export async function measuredLoad(server, target, options) {
  const before = await server.cpuTimes();
  const result = await load(target, options);
  const after = await server.cpuTimes();
  result.cpuPerRequest = (after.cpu - before.cpu) / result.count;
  result.userCpuPerRequest = (after.user - before.user) / result.count;
  return result;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
