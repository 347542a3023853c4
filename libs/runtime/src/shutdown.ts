import type { Logger } from '@feedback/platform';

/** SIGTERM/SIGINT: run the closers in order (stop taking requests first), then exit. */
export function onShutdown(logger: Logger, timeoutMs: number, closers: Array<() => Promise<unknown>>) {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    let code = 0;
    for (const close of closers) {
      try {
        await close();
      } catch (error) {
        code = 1;
        logger.error({ err: error }, 'error while shutting down');
      }
    }
    logger.info('stopped');
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
