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
/** Commands on one stream decided together and written in one append, at most. */
const MAX_GROUP = 256;

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

interface Queued {
  aggregate: Aggregate<any, any, any>;
  command: unknown;
  context: CommandContext;
  resolve: (handled: HandledCommand<any>) => void;
  reject: (error: unknown) => void;
}

// Commands on one stream from one process queue up instead of colliding. Those that arrive
// while an append is in flight are decided together, each on the state the ones before it
// left, and written in one append (each with its own actor, correlation and causation id):
// a hundred comments created at once in one project take one append on its commentNumbers
// stream, not a hundred appends one after the other. Across processes the expected revision
// still decides, and the losing group retries on fresh state.
const lanes = new WeakMap<EventStore, Map<string, Queued[]>>();

/** Load the stream, decide, append at the revision that was read; on conflict, again. */
export function handleCommand<State, Command, Result>(
  store: EventStore,
  stream: string,
  aggregate: Aggregate<State, Command, Result>,
  command: Command,
  context: CommandContext,
): Promise<HandledCommand<Result>> {
  let lane = lanes.get(store);
  if (!lane) lanes.set(store, (lane = new Map()));
  const byStream = lane;
  return new Promise((resolve, reject) => {
    const queue = byStream.get(stream);
    const item: Queued = { aggregate, command, context, resolve, reject };
    if (queue) return void queue.push(item);
    const fresh = [item];
    byStream.set(stream, fresh);
    void (async () => {
      while (fresh.length > 0) {
        const group = fresh.splice(0, MAX_GROUP);
        await decideGroup(store, stream, group);
      }
      byStream.delete(stream);
    })();
  });
}

async function decideGroup(store: EventStore, stream: string, group: Queued[]): Promise<void> {
  const aggregate = group[0]!.aggregate;
  for (let attempt = 1; ; attempt++) {
    let outcomes: Array<{ events: FeedbackEvent[]; result: unknown } | { error: unknown }>;
    let revision: number;
    try {
      const loaded = await load(store, stream, aggregate);
      revision = loaded.revision;
      // Later commands of the group see the events of earlier ones, on a copy: the cached
      // state must only ever hold what is stored.
      let state = group.length > 1 ? structuredClone(loaded.state) : loaded.state;
      outcomes = group.map((item) => {
        try {
          const decided = item.aggregate.decide(item.command, state);
          if (group.length > 1) for (const event of decided.events) state = item.aggregate.evolve(state, event);
          return decided;
        } catch (error) {
          return { error };
        }
      });
    } catch (error) {
      for (const item of group) item.reject(error);
      return;
    }
    const writes = outcomes.flatMap((outcome, i) => ('events' in outcome && outcome.events.length > 0 ? [{ events: outcome.events, context: group[i]!.context }] : []));
    let position: number | null = null;
    try {
      if (writes.length > 0) position = await appendCommands(store, stream, writes, revision === -1 ? 'no_stream' : revision);
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError && attempt < MAX_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
        continue;
      }
      for (const item of group) item.reject(error);
      return;
    }
    outcomes.forEach((outcome, i) => {
      if ('error' in outcome) group[i]!.reject(outcome.error);
      else group[i]!.resolve({ result: outcome.result, position: outcome.events.length > 0 ? position : null });
    });
    return;
  }
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

async function appendAt(store: EventStore, stream: string, events: FeedbackEvent[], expectedRevision: ExpectedRevision, context: CommandContext): Promise<number> {
  return appendCommands(store, stream, [{ events, context }], expectedRevision);
}

/** Every append goes through here: the events of one command share one causation id. */
async function appendCommands(store: EventStore, stream: string, commands: Array<{ events: FeedbackEvent[]; context: CommandContext }>, expectedRevision: ExpectedRevision): Promise<number> {
  const encoded = commands.flatMap(({ events, context }) => {
    const metadata = { actor: context.actor, correlationId: context.correlationId, causationId: randomUUID() };
    return events.map((event) => encodeEvent(event, metadata));
  });
  const appended = await store.appendToStream(stream, encoded, { expectedRevision });
  for (const { events } of commands) for (const event of events) eventsAppended.inc({ type: event.type });
  return appended.lastPosition;
}
