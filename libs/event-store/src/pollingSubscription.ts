import type { StoredEvent } from '@feedback/events';
import type { Subscription } from './eventStore.js';

export interface PollingSource {
  readAll(options: { after: number; limit: number }): Promise<StoredEvent[]>;
  /** Resolves when new events may exist (a local append or the poll interval), or when aborted. */
  waitForAppend(signal: AbortSignal): Promise<void>;
}

/**
 * A catch-up subscription built from pages of readAll. Pull-based, so a slow consumer applies
 * back-pressure instead of buffering the log in memory.
 */
export function pollingSubscription(source: PollingSource, after: number, pageSize = 500): Subscription {
  const abort = new AbortController();
  async function* iterate(): AsyncGenerator<StoredEvent> {
    let position = after;
    while (!abort.signal.aborted) {
      const page = await source.readAll({ after: position, limit: pageSize });
      for (const event of page) {
        if (abort.signal.aborted) return;
        position = event.position;
        yield event;
      }
      if (page.length < pageSize) await source.waitForAppend(abort.signal);
    }
  }
  const iterator = iterate();
  return {
    [Symbol.asyncIterator]: () => iterator,
    async close() {
      abort.abort();
    },
  };
}

/** Sleep that ends early on abort or on a wake-up call. */
export function createWaker(pollMs: number) {
  const waiting = new Set<() => void>();
  return {
    wake() {
      for (const resolve of waiting) resolve();
      waiting.clear();
    },
    wait(signal: AbortSignal): Promise<void> {
      if (signal.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          waiting.delete(done);
          resolve();
        };
        const timer = setTimeout(done, pollMs);
        signal.addEventListener('abort', done, { once: true });
        waiting.add(done);
      });
    },
  };
}
