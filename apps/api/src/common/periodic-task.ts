// Upkeep that a process runs every so often on its own: never two runs at once, a failed run logged and
// tried again at the next tick, and stopping waits for a run in flight so that shutdown never cuts one short.
// A provider extends it to run while the app runs (Nest calls onModuleInit and onModuleDestroy).
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';

export class PeriodicTask implements OnModuleInit, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  /** `name` says in the log what failed; `work` is one run, every `intervalMs` (0 or less: never). */
  constructor(
    private readonly name: string,
    private readonly work: () => Promise<void>,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  /** Starts the ticks, without keeping the process alive. */
  onModuleInit(): void {
    if (this.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.run(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops the ticks and waits for a run in flight. */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One run now, or the one already in flight; never rejects (a failure is logged). */
  run(): Promise<void> {
    this.running ??= this.work()
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, `${this.name} failed`);
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
