import type { StoredEvent } from '@feedback/events';
import type { EventStore, Subscription } from '@feedback/event-store';
import type { Commit } from './eventBus.js';

const idle = Symbol('idle');
const nextTick = () => new Promise<typeof idle>((resolve) => setImmediate(() => resolve(idle)));

const sameCommit = (a: StoredEvent, b: StoredEvent) => a.stream === b.stream && a.metadata.causationId === b.metadata.causationId;

/**
 * The log after `after` as batches of whole commits (the events of one append stay together:
 * a status and a priority changed by one command make one notification). An append becomes
 * visible all at once, so when the subscription has nothing more to give right now, the
 * commit in hand is complete.
 */
export function commitsOf(eventStore: EventStore, after: number, maxEvents = 500): AsyncIterable<Commit[]> & { close(): Promise<void> } {
  const subscription = eventStore.subscribeToAll({ after });
  return { [Symbol.asyncIterator]: () => group(subscription, maxEvents), close: () => subscription.close() };
}

async function* group(subscription: Subscription, maxEvents: number): AsyncGenerator<Commit[]> {
  const iterator = subscription[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<StoredEvent>> | null = null;
  let batch: Commit[] = [];
  let current: StoredEvent[] = [];
  let size = 0;
  try {
    for (;;) {
      pending ??= iterator.next();
      // With nothing in hand there is nothing to flush: just wait for the next append.
      const next = current.length === 0 ? await pending : await Promise.race([pending, nextTick()]);
      if (next === idle) {
        if (current.length) batch.push({ events: current });
        current = [];
        if (batch.length) yield batch;
        batch = [];
        size = 0;
        continue;
      }
      pending = null;
      if (next.done) break;
      const event = next.value;
      if (current.length && !sameCommit(current[0]!, event)) {
        batch.push({ events: current });
        current = [];
        if (size >= maxEvents) {
          yield batch;
          batch = [];
          size = 0;
        }
      }
      current.push(event);
      size++;
    }
    if (current.length) batch.push({ events: current });
    if (batch.length) yield batch;
  } finally {
    await subscription.close();
  }
}
