const TICK = Symbol('tick');
const tick = () => new Promise<typeof TICK>((resolve) => setImmediate(() => resolve(TICK)));

/**
 * Groups what an async iterator yields into arrays: everything already available, up to
 * `max`, without waiting for more. A caught-up projector writes one event at a time; a
 * catching-up one writes hundreds per transaction.
 */
export async function* batches<T>(source: AsyncIterable<T>, max: number): AsyncGenerator<T[]> {
  const iterator = source[Symbol.asyncIterator]();
  let pending = iterator.next();
  for (;;) {
    const first = await pending;
    if (first.done) return;
    const batch = [first.value];
    pending = iterator.next();
    while (batch.length < max) {
      const next = await Promise.race([pending, tick()]);
      if (next === TICK) break;
      if (next.done) {
        yield batch;
        return;
      }
      batch.push(next.value);
      pending = iterator.next();
    }
    yield batch;
  }
}
