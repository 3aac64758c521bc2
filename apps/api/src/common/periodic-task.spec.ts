import pino from 'pino';

import { PeriodicTask } from './periodic-task.js';

/** A logger that keeps what it was told, to read back. */
function recordingLogger() {
  type Line = { msg: string; err?: { message: string } };
  const lines: Line[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as Line) });
  return { logger, lines };
}

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('PeriodicTask', () => {
  it('never runs twice at once: a run asked for while one is in flight is that run', async () => {
    const { logger } = recordingLogger();
    const { open, opened } = gate();
    let runs = 0;
    const task = new PeriodicTask(
      'the test task',
      async () => {
        runs++;
        await opened;
      },
      logger,
      0,
    );
    const first = task.run();
    const second = task.run();
    expect(second).toBe(first);
    open();
    await first;
    expect(runs).toBe(1);
    await task.run();
    expect(runs).toBe(2);
  });

  it('logs a failed run by name and runs again afterwards', async () => {
    const { logger, lines } = recordingLogger();
    let runs = 0;
    const task = new PeriodicTask(
      'sweeping the test table',
      () => {
        runs++;
        return runs === 1 ? Promise.reject(new Error('database gone')) : Promise.resolve();
      },
      logger,
      0,
    );
    await expect(task.run()).resolves.toBeUndefined();
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'sweeping the test table failed',
        err: expect.objectContaining({ message: 'database gone' }) as unknown,
      }),
    ]);
    await task.run();
    expect(runs).toBe(2);
  });

  it('runs on its interval once started, and stop waits for the run in flight and ends the ticks', async () => {
    const { logger } = recordingLogger();
    const { open, opened } = gate();
    let runs = 0;
    let finished = false;
    const task = new PeriodicTask(
      'the test task',
      async () => {
        runs++;
        await opened;
        finished = true;
      },
      logger,
      10,
    );
    task.onModuleInit();
    while (runs === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const stopped = task.onModuleDestroy();
    open();
    await stopped;
    expect(finished).toBe(true);
    const runsAtStop = runs;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs).toBe(runsAtStop);
  });

  it('never ticks with an interval of 0', async () => {
    const { logger } = recordingLogger();
    let runs = 0;
    const task = new PeriodicTask(
      'the test task',
      () => {
        runs++;
        return Promise.resolve();
      },
      logger,
      0,
    );
    task.onModuleInit();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(runs).toBe(0);
    await task.onModuleDestroy();
  });
});
