import type { EventStore } from '@feedback/event-store';
import { backoffMs, type Logger } from '@feedback/platform';
import type { ReadStore } from '@feedback/read-store';
import { commitsOf } from './commits.js';
import type { BusHandlers, EventBus } from './eventBus.js';

const CHECKPOINT = 'relay-embedded-bus';

/**
 * The embedded bus: one relay follows the event store's log itself, as one partition, and
 * remembers how far it got in the relay store. One consumer only: a second relay on the same
 * data needs the Kafka bus.
 */
export function createEmbeddedBus(options: { eventStore: EventStore; store: ReadStore; logger: Logger }): EventBus {
  const { eventStore, store, logger } = options;
  let stopped = false;
  let running: Promise<void> | null = null;
  let commits: ReturnType<typeof commitsOf> | null = null;
  let error: string | null = null;
  let failures = 0;

  async function run(handlers: BusHandlers) {
    while (!stopped) {
      try {
        const after = (await store.getCheckpoint(CHECKPOINT))?.position ?? 0;
        const source = commitsOf(eventStore, after);
        commits = source;
        for await (const batch of source) {
          await handlers.handle({ partition: 0, commits: batch });
          const last = batch[batch.length - 1]!.events.at(-1)!.position;
          await store.commit([], { name: CHECKPOINT, position: last });
          error = null;
          failures = 0;
          if (stopped) break;
        }
      } catch (caught) {
        if (stopped) break;
        error = (caught as Error).message;
        const wait = backoffMs(++failures);
        logger.error({ err: caught, retryInMs: wait }, 'relay intake failed; resuming from its checkpoint after a backoff');
        await commits?.close();
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  return {
    async start(handlers) {
      handlers.assigned([0]);
      running = run(handlers);
    },
    async stop() {
      stopped = true;
      await commits?.close();
      await running;
    },
    problem: () => error,
  };
}
