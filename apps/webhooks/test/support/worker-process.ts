// Test support: the built worker as operators run it (`node apps/webhooks/dist/main.js`), a child
// process with the test configuration, its JSON log lines kept so a test can tell who delivered what.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { TEST_ENV } from './worker-fixture.js';

const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly eventId?: string;
  readonly url?: string;
}

export class WorkerProcess {
  private output = '';
  readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  /**
   * Starts the worker on `databaseUrl`, logging at debug (one line per delivery), and waits until it
   * works; `env` adds to or overrides the test configuration.
   */
  static async start(databaseUrl: string, env: Record<string, string> = {}): Promise<WorkerProcess> {
    // `npm test` builds first (turbo: test depends on build); a bare jest run needs the build too.
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the worker first`);
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        ...TEST_ENV,
        LOG_LEVEL: 'debug',
        DATABASE_URL: databaseUrl,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const worker = new WorkerProcess(child);
    const deadline = Date.now() + 15_000;
    while (!worker.logged('webhooks worker started')) {
      if (!worker.running || Date.now() > deadline) {
        worker.kill('SIGKILL');
        throw new Error(`the worker did not start:\n${worker.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return worker;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  lines(): LogLine[] {
    return this.output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
  }

  /** Where its /healthz, /readyz and /metrics answer (logged once it listens). */
  get opsUrl(): string {
    const url = this.lines().find((line) => line.msg === 'operations server listening')?.url;
    if (!url) throw new Error(`the worker has not logged its operations address:\n${this.output}`);
    return url;
  }

  /** Everything it wrote, for failure messages. */
  get log(): string {
    return this.output;
  }

  logged(msg: string): boolean {
    return this.lines().some((line) => line.msg === msg);
  }

  /** Ids of the events this process delivered (a 200 from the receiver). */
  delivered(): string[] {
    return this.lines()
      .filter((line) => line.msg === 'webhook delivered')
      .map((line) => line.eventId ?? '');
  }

  kill(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /** SIGTERM, and SIGKILL if it has not exited after 10 s. */
  async stop(): Promise<void> {
    this.kill('SIGTERM');
    const timer = setTimeout(() => this.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}
