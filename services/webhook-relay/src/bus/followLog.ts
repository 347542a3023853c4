import type { EventStore } from '@feedback/event-store';
import { backoffMs, type Logger } from '@feedback/platform';
import type { ReadStore } from '@feedback/read-store';
import { commitsOf } from './commits.js';
import type { Commit } from './eventBus.js';

export interface LogFollower {
  stop(): Promise<void>;
  /** Null while batches go through, else the last failure (for /health). */
  problem(): string | null;
}

/**
 * Follows the event store's log from a checkpoint kept in `store`, one batch of commits at a
 * time: the checkpoint moves only after `onBatch` resolved, so a crash repeats a batch, never
 * skips one. A failure resumes from the checkpoint after a growing backoff.
 */
export function followLog(
  options: { eventStore: EventStore; store: ReadStore; checkpoint: string; logger: Logger; what: string },
  onBatch: (commits: Commit[]) => Promise<void>,
): LogFollower {
  const { eventStore, store, checkpoint, logger, what } = options;
  let source: ReturnType<typeof commitsOf> | null = null;
  let stopped = false;
  let failures = 0;
  let problem: string | null = null;
  const running = (async () => {
    while (!stopped) {
      try {
        const after = (await store.getCheckpoint(checkpoint))?.position ?? 0;
        logger.info({ after }, `${what}: following the event log`);
        source = commitsOf(eventStore, after);
        for await (const commits of source) {
          await onBatch(commits);
          await store.commit([], { name: checkpoint, position: commits.at(-1)!.events.at(-1)!.position });
          failures = 0;
          problem = null;
          if (stopped) break;
        }
      } catch (error) {
        if (stopped) break;
        problem = `${what}: ${(error as Error).message}`;
        const wait = backoffMs(++failures);
        logger.error({ err: error, retryInMs: wait }, `${what} failed; resuming from its checkpoint after a backoff`);
        await source?.close();
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      await source?.close();
      await running;
    },
    problem: () => problem,
  };
}
