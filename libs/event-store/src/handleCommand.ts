import { randomUUID } from 'node:crypto';
import { encodeEvent, type Actor, type FeedbackEvent } from '@feedback/events';
import { eventsAppended } from '@feedback/platform';
import { WrongExpectedRevisionError, type EventStore, type ExpectedRevision } from './eventStore.js';

/** Who asks, and the request it belongs to: stamped on every event the command causes. */
export interface CommandContext {
  actor: Actor;
  correlationId: string;
}

export interface Aggregate<State, Command, Result> {
  initialState: () => State;
  evolve: (state: State, event: FeedbackEvent) => State;
  decide: (command: Command, state: State) => { events: FeedbackEvent[]; result: Result };
}

export interface HandledCommand<Result> {
  result: Result;
  /** Global position of the last event appended, or null when the command changed nothing. */
  position: number | null;
}

const MAX_ATTEMPTS = 50;

// Commands on one stream from one process queue up instead of colliding; across processes
// the expected revision still decides, and the loser retries on fresh state.
const queues = new Map<string, Promise<unknown>>();
function serialised<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return next;
}

// The state each stream last folded to, per store: a command reads only the events after it.
// A project's commentNumbers stream grows with every comment; without this, creating the
// 100,000th comment would fold 100,000 events. Entries are only ever built from stored events,
// so a stale one is merely behind: the tail read catches it up, and the expected revision
// still guards the append.
const CACHED_STREAMS = 10_000;
type Folded = { aggregate: unknown; state: unknown; revision: number };
const folded = new WeakMap<EventStore, Map<string, Folded>>();

async function load<State>(store: EventStore, stream: string, aggregate: Aggregate<State, any, any>): Promise<{ state: State; revision: number }> {
  let cache = folded.get(store);
  if (!cache) folded.set(store, (cache = new Map()));
  const hit = cache.get(stream);
  const start = hit && hit.aggregate === aggregate ? hit : { aggregate, state: aggregate.initialState(), revision: -1 };
  let state = start.state as State;
  let revision = start.revision;
  for (const event of await store.readStream(stream, { fromRevision: revision + 1 })) {
    state = aggregate.evolve(state, event);
    revision = event.revision;
  }
  cache.delete(stream);
  cache.set(stream, { aggregate, state, revision });
  if (cache.size > CACHED_STREAMS) cache.delete(cache.keys().next().value!);
  return { state, revision };
}

/** Load the stream, decide, append at the revision that was read; on conflict, again. */
export function handleCommand<State, Command, Result>(
  store: EventStore,
  stream: string,
  aggregate: Aggregate<State, Command, Result>,
  command: Command,
  context: CommandContext,
): Promise<HandledCommand<Result>> {
  return serialised(stream, async () => {
    for (let attempt = 1; ; attempt++) {
      const { state, revision } = await load(store, stream, aggregate);
      const { events, result } = aggregate.decide(command, state);
      if (events.length === 0) return { result, position: null };
      try {
        const position = await appendAt(store, stream, events, revision === -1 ? 'no_stream' : revision, context);
        return { result, position };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
      }
    }
  });
}

/** Append to a stream that must not exist yet (token streams, reservations). */
export async function appendNew(store: EventStore, stream: string, events: FeedbackEvent[], context: CommandContext): Promise<number> {
  return appendAt(store, stream, events, 'no_stream', context);
}

/**
 * Append only if the stream is still where the caller read it; null when it has moved on.
 * For streams whose only possible next event is the one being appended (a token's revocation):
 * losing the race means the same fact is already recorded.
 */
export async function appendIfUnchanged(store: EventStore, stream: string, events: FeedbackEvent[], readRevision: number, context: CommandContext): Promise<number | null> {
  try {
    return await appendAt(store, stream, events, readRevision, context);
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) return null;
    throw error;
  }
}

/** Every append of a command goes through here: one causation id for the events of one append. */
async function appendAt(store: EventStore, stream: string, events: FeedbackEvent[], expectedRevision: ExpectedRevision, context: CommandContext): Promise<number> {
  const metadata = { actor: context.actor, correlationId: context.correlationId, causationId: randomUUID() };
  const appended = await store.appendToStream(stream, events.map((event) => encodeEvent(event, metadata)), { expectedRevision });
  for (const event of events) eventsAppended.inc({ type: event.type });
  return appended.lastPosition;
}
