import type { StoredEvent } from '@feedback/events';
import type { EventStore, Subscription } from '@feedback/event-store';
import type { Change, Document, ReadStore } from '@feedback/read-store';
import { backoffMs, projectionLagEvents, projectionLagSeconds, projectionVisibleSeconds, type Logger } from '@feedback/platform';
import { batches } from './batches.js';
import type { Projection } from './projections/index.js';

export const MAIN_CHECKPOINT = 'main';

/** A rebuild switched the read models under this projector: it resumes from the new checkpoint. */
class GenerationSwitched extends Error {}

export interface ProjectorOptions {
  eventStore: EventStore;
  readStore: ReadStore;
  projections: Projection[];
  logger: Logger;
  checkpointName?: string;
  batchSize?: number;
  /**
   * Leave the read models' indexes until `ensureIndexes()` is called: a rebuild into empty storage
   * creates them once the log is replayed (one sorted build each) instead of updating them on
   * every write.
   */
  deferIndexes?: boolean;
  /** Called after each committed batch with the new checkpoint: in-process read-your-writes. */
  onCommitted?: (position: number) => void;
}

export interface Projector {
  start(): Promise<void>;
  /** Applies everything up to the log's head now, then returns (CLI, rebuild, tests). */
  catchUp(): Promise<number>;
  /** Creates the indexes every projection declares (at start unless `deferIndexes`). */
  ensureIndexes(): Promise<void>;
  stop(): Promise<void>;
  position(): number;
  lastError(): Error | null;
}

/**
 * Builds every read model from the whole log. Each batch of events is applied in memory and
 * written with the checkpoint in one commit. Documents remember the last position applied to
 * them, so a batch replayed after a crash (documents written, checkpoint not) changes nothing.
 */
export function createProjector(options: ProjectorOptions): Projector {
  const { eventStore, readStore, projections, logger } = options;
  const name = options.checkpointName ?? MAIN_CHECKPOINT;
  const batchSize = options.batchSize ?? 500;
  const byType = new Map<string, Projection[]>();
  for (const projection of projections)
    for (const type of projection.handles) byType.set(type, [...(byType.get(type) ?? []), projection]);

  let position = 0;
  let subscription: Subscription | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  let error: Error | null = null;
  let failures = 0;

  let generation = readStore.generation();

  async function apply(events: StoredEvent[]): Promise<void> {
    if (readStore.generation() !== generation) throw new GenerationSwitched();
    const wanted = new Map<string, Set<string>>();
    for (const event of events)
      for (const projection of byType.get(event.type) ?? []) {
        const id = projection.documentId(event);
        if (id) wanted.set(projection.collection, (wanted.get(projection.collection) ?? new Set()).add(id));
      }
    const docs = new Map<string, Map<string, Document | null>>();
    for (const [collection, ids] of wanted) docs.set(collection, await readStore.getMany(collection, [...ids]));
    const dirty = new Map<string, Change>();
    for (const event of events)
      for (const projection of byType.get(event.type) ?? []) {
        const id = projection.documentId(event);
        if (!id) continue;
        const collectionDocs = docs.get(projection.collection)!;
        const current = collectionDocs.get(id) ?? null;
        if (current && current._position >= event.position) continue; // already applied before a crash
        const { _position: _, ...body } = current ?? ({} as Document);
        const next = projection.evolve(current ? (body as Document) : null, event);
        const doc: Document | null = next ? { ...next, _position: event.position } : null;
        collectionDocs.set(id, doc);
        dirty.set(`${projection.collection}\u0000${id}`, { collection: projection.collection, id, doc });
      }
    const last = events[events.length - 1]!.position;
    // Documents read from one generation must never be written into another.
    if (readStore.generation() !== generation) throw new GenerationSwitched();
    await readStore.commit([...dirty.values()], { name, position: last });
    position = last;
    const now = Date.now();
    let lagSeconds = 0;
    for (const event of events) {
      lagSeconds = Math.max(0, now - Date.parse(event.occurredAt)) / 1000;
      projectionVisibleSeconds.observe(lagSeconds);
    }
    projectionLagSeconds.set(lagSeconds);
    options.onCommitted?.(last);
  }

  async function ensureIndexes(): Promise<void> {
    for (const projection of projections) await readStore.ensureIndexes(projection.collection, projection.indexes);
  }

  async function prepare(): Promise<void> {
    generation = readStore.generation();
    if (!options.deferIndexes) await ensureIndexes();
    position = (await readStore.getCheckpoint(name))?.position ?? 0;
  }

  async function run(): Promise<void> {
    while (!stopped) {
      try {
        await prepare();
        subscription = eventStore.subscribeToAll({ after: position });
        for await (const batch of batches(subscription, batchSize)) {
          await apply(batch);
          error = null;
          failures = 0;
          if (stopped) break;
        }
      } catch (caught) {
        if (stopped) break;
        if (caught instanceof GenerationSwitched) {
          logger.info({ generation: readStore.generation() }, 'read models were rebuilt; continuing on the new generation');
          await subscription?.close();
          continue;
        }
        error = caught as Error;
        const wait = backoffMs(++failures);
        logger.error({ err: caught, position, retryInMs: wait }, 'projector failed; resuming from its checkpoint after a backoff');
        await subscription?.close();
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  return {
    async start() {
      await prepare();
      logger.info({ checkpoint: position }, 'projector started');
      projectionLagEvents.measureWith(async () => Math.max(0, (await eventStore.headPosition()) - position));
      running = run();
    },
    async catchUp() {
      await prepare();
      const head = await eventStore.headPosition();
      while (position < head) {
        const page = await eventStore.readAll({ after: position, limit: batchSize });
        if (page.length === 0) break;
        await apply(page);
      }
      return position;
    },
    async stop() {
      stopped = true;
      await subscription?.close();
      await running;
    },
    ensureIndexes,
    position: () => position,
    lastError: () => error,
  };
}
