import type { EventStore } from '@feedback/event-store';
import type { Logger } from '@feedback/platform';
import { createProjector, projections } from '@feedback/projector';
import { DEFAULT_GENERATION, type ReadStore } from '@feedback/read-store';

/** Milliseconds readers take to notice a switch (followActiveGeneration refreshes every 500 ms), with margin. */
const READERS_SWITCH_MS = 2_000;

/**
 * `projections rebuild`: replays the whole log from position 0 into a fresh generation of every
 * read model while the service keeps answering from the current one, then switches readers
 * (and the live projector) over and drops the old generation.
 */
export async function rebuildProjections(eventStore: EventStore, base: ReadStore, logger: Logger, out: NodeJS.WriteStream = process.stderr) {
  const previous = (await base.getActiveGeneration()) ?? DEFAULT_GENERATION;
  const next = `g${Date.now().toString(36)}`;
  const target = base.withPrefix(next);
  await target.drop();
  const started = Date.now();
  let head = await eventStore.headPosition();
  let lastPrint = 0;
  const report = (position: number, final = false) => {
    const now = Date.now();
    if (!final && now - lastPrint < (out.isTTY ? 100 : 2_000)) return;
    lastPrint = now;
    const seconds = (now - started) / 1000;
    const rate = position / Math.max(seconds, 0.001);
    const left = rate > 0 ? Math.max(0, (head - position) / rate) : 0;
    const line = `rebuilding read models: ${position}/${head} events (${head ? Math.floor((position / head) * 100) : 100}%), ${Math.round(rate)} events/s, ${left.toFixed(1)} s left`;
    out.write(out.isTTY ? `\r${line}${final ? '\n' : ''}` : `${line}\n`);
  };
  const projector = createProjector({ eventStore, readStore: target, projections, logger, batchSize: 2_000, deferIndexes: true, onCommitted: (position) => report(position) });
  let position = await projector.catchUp();
  // Events keep arriving while we replay: catch up until the head stops moving away.
  for (;;) {
    head = await eventStore.headPosition();
    if (position >= head) break;
    position = await projector.catchUp();
  }
  report(position, true);
  await projector.ensureIndexes();
  const replaySeconds = (Date.now() - started) / 1000;
  await base.setActiveGeneration(next);
  await new Promise((resolve) => setTimeout(resolve, READERS_SWITCH_MS));
  await base.withPrefix(previous).drop();
  await target.close();
  const seconds = (Date.now() - started) / 1000;
  // The rate is the replay's own: the pause that lets readers notice the switch is not replay work.
  return {
    rebuilt: true,
    generation: next,
    previousGeneration: previous,
    events: position,
    seconds: Number(seconds.toFixed(3)),
    replaySeconds: Number(replaySeconds.toFixed(3)),
    eventsPerSecond: Math.round(position / Math.max(replaySeconds, 0.001)),
  };
}
