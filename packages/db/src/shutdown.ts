// The graceful stop both services share: on the first SIGTERM or SIGINT, run the steps in order (stop
// taking work and finish what is in flight, then the queue, the pool, the database), then exit.

interface ShutdownLogger {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export function stopGracefullyOnSignals(
  logger: ShutdownLogger,
  message: string,
  steps: readonly (() => unknown)[],
): void {
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, message);
    void (async () => {
      for (const step of steps) await step();
      logger.info({}, 'stopped');
      process.exit(0);
    })().catch((error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
