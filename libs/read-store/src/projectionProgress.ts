import type { ReadStore } from './readStore.js';

export interface ProjectionProgress {
  /** Resolves true once the read models include `position`, false after `timeoutMs`. */
  waitFor(position: number, timeoutMs: number): Promise<boolean>;
  /**
   * For a write answered before the read models include it: records `position` and resolves
   * true once at most `limit` such writes are still ahead of the read models (false after
   * `timeoutMs`). Positions are only compared, never subtracted: KurrentDB's are byte offsets.
   */
  keepWithin(position: number, limit: number, timeoutMs: number): Promise<boolean>;
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
  /** Positions of unprojected eventual writes, ascending. */
  const ahead: number[] = [];

  const settle = () => {
    let projected = 0;
    while (projected < ahead.length && ahead[projected]! <= known) projected++;
    if (projected > 0) ahead.splice(0, projected);
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

  function waitFor(position: number, timeoutMs: number): Promise<boolean> {
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
  }

  return {
    waitFor,
    keepWithin(position, limit, timeoutMs) {
      if (position <= known) return Promise.resolve(true);
      // Appends that finish together may report out of order: insert, don't push.
      let at = ahead.length;
      while (at > 0 && ahead[at - 1]! > position) at--;
      ahead.splice(at, 0, position);
      if (ahead.length <= limit) return Promise.resolve(true);
      // Only the newest limit + 1 can matter to this wait or any later one.
      ahead.splice(0, ahead.length - 1 - limit);
      return waitFor(ahead[0]!, timeoutMs);
    },
    advanced(position) {
      if (position > known) known = position;
      settle();
    },
  };
}
