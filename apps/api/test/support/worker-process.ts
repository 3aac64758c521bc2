// The built webhooks worker (apps/webhooks/dist/main.js) as a child process on the api fixture's database,
// for the api tests that need real deliveries (the api's tests do not import the worker's code). Its
// configuration is the environment, as operators give it; `env` adds to it (small retry delays, say).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import type { ApiFixture } from './app-fixture.js';

const MAIN = join(__dirname, '..', '..', '..', 'webhooks', 'dist', 'main.js');

export class WorkerProcess {
  private output = '';
  private readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  /** Starts the worker with the api's database and master key; resolves once it says it has started. */
  static async start(api: ApiFixture, env: Record<string, string> = {}): Promise<WorkerProcess> {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the worker first`);
    const child = spawn(process.env.SERVICE_NODE ?? process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        DATABASE_URL: api.db.url,
        MASTER_KEY: api.config.masterKey.toString('base64'),
        LOG_LEVEL: 'info',
        DATA_DIR: '/nonexistent',
        WORKER_PORT: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const worker = new WorkerProcess(child);
    const deadline = Date.now() + 30_000;
    while (!worker.output.includes('"msg":"webhooks worker started"')) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`the worker did not start:\n${worker.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return worker;
  }

  /** Everything it wrote, for failure messages. */
  get log(): string {
    return this.output;
  }

  /** SIGTERM, and SIGKILL if it has not exited after 10 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}
