import { DEFAULT_GENERATION, type ReadStore } from './readStore.js';

/**
 * A read store that follows the active generation: after `projections rebuild` switches it,
 * every reader moves to the new read models within `refreshMs`, without a restart.
 */
export async function followActiveGeneration(base: ReadStore, refreshMs = 500): Promise<ReadStore> {
  let prefix = (await base.getActiveGeneration()) ?? DEFAULT_GENERATION;
  let current = prefix === base.generation() ? base : base.withPrefix(prefix);

  const refresh = async () => {
    const active = (await base.getActiveGeneration().catch(() => null)) ?? DEFAULT_GENERATION;
    if (active === prefix) return;
    const previous = current;
    prefix = active;
    current = active === base.generation() ? base : base.withPrefix(active);
    // Requests already running on the old generation finish there; close it a little later.
    if (previous !== base) setTimeout(() => void previous.close().catch(() => undefined), 5_000).unref();
  };
  const timer = setInterval(() => void refresh(), refreshMs);
  timer.unref();

  return {
    get: (c, id) => current.get(c, id),
    findOne: (c, where) => current.findOne(c, where),
    find: (c, query) => current.find(c, query),
    count: (c, where) => current.count(c, where),
    getMany: (c, ids) => current.getMany(c, ids),
    commit: (changes, checkpoint) => current.commit(changes, checkpoint),
    getCheckpoint: (name) => current.getCheckpoint(name),
    ensureIndexes: (c, indexes) => current.ensureIndexes(c, indexes),
    drop: () => current.drop(),
    withPrefix: (next) => base.withPrefix(next),
    getActiveGeneration: () => base.getActiveGeneration(),
    setActiveGeneration: (next) => base.setActiveGeneration(next),
    generation: () => prefix,
    async close() {
      clearInterval(timer);
      if (current !== base) await current.close();
      await base.close();
    },
  };
}
