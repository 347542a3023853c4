import type { ReadStore } from './readStore.js';

export interface ProjectionProgress {
  /** Resolves true once the read models include `position`, false after `timeoutMs`. */
  waitFor(position: number, timeoutMs: number): Promise<boolean>;
  /** The projector of this process reports each commit here, so local waiters wake at once. */
  advanced(position: number): void;
}

/**
 * Read-your-writes. In one process the projector wakes waiters directly; across processes the
 * checkpoint in the read store is polled while anybody waits.
 */
export function createProjectionProgress(readStore: ReadStore, checkpointName: string, pollMs = 10): ProjectionProgress {
  let known = 0;
  const waiters = new Set<{ position: number; resolve: (ok: boolean) => void }>();
  let polling = false;

  const settle = () => {
    for (const waiter of waiters)
      if (waiter.position <= known) {
        waiters.delete(waiter);
        waiter.resolve(true);
      }
  };
  async function poll() {
    if (polling) return;
    polling = true;
    try {
      while (waiters.size > 0) {
        const checkpoint = await readStore.getCheckpoint(checkpointName).catch(() => null);
        if (checkpoint && checkpoint.position > known) known = checkpoint.position;
        settle();
        if (waiters.size > 0) await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    } finally {
      polling = false;
    }
  }

  return {
    waitFor(position, timeoutMs) {
      if (position <= known) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const waiter = {
          position,
          resolve: (ok: boolean) => {
            clearTimeout(timer);
            resolve(ok);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          resolve(false);
        }, timeoutMs);
        waiters.add(waiter);
        void poll();
      });
    },
    advanced(position) {
      if (position > known) known = position;
      settle();
    },
  };
}
