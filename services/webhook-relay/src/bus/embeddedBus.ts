import type { EventStore } from '@feedback/event-store';
import type { Logger } from '@feedback/platform';
import type { ReadStore } from '@feedback/read-store';
import type { EventBus } from './eventBus.js';
import { followLog, type LogFollower } from './followLog.js';

const CHECKPOINT = 'relay-embedded-bus';

/**
 * The embedded bus: one relay follows the event store's log itself, as one partition, and
 * remembers how far it got in the relay store. One consumer only: a second relay on the same
 * data needs the Kafka bus.
 */
export function createEmbeddedBus(options: { eventStore: EventStore; store: ReadStore; logger: Logger }): EventBus {
  let follower: LogFollower | null = null;
  return {
    async start(handlers) {
      handlers.assigned([0]);
      follower = followLog({ ...options, checkpoint: CHECKPOINT, what: 'relay intake' }, (commits) => handlers.handle({ partition: 0, commits }));
    },
    async stop() {
      await follower?.stop();
    },
    problem: () => follower?.problem() ?? null,
    handedOver: async () => (await options.store.getCheckpoint(CHECKPOINT))?.position ?? 0,
  };
}
