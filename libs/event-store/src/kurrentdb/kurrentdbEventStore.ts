import {
  ANY,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  KurrentDBClient,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AppendStreamState,
  type ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import { decodeRecordedEvent, type EventMetadata, type StoredEvent } from '@feedback/events';
import { WrongExpectedRevisionError, type EventStore, type ExpectedRevision } from '../eventStore.js';

/** What we keep in KurrentDB's per-event metadata, beside the domain metadata. */
interface StoredMetadata extends EventMetadata {
  eventId: string;
  occurredAt: string;
  schemaVersion: number;
}

function toStreamState(expected: ExpectedRevision): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  return BigInt(expected);
}

/** ULIDs are 128-bit like UUIDs; reusing the bits lets KurrentDB dedupe a retried append. */
export function ulidToUuid(ulid: string): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let value = 0n;
  for (const char of ulid.toUpperCase()) value = value * 32n + BigInt(alphabet.indexOf(char));
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function decode(resolved: ResolvedEvent): StoredEvent | null {
  const event = resolved.event;
  if (!event || event.type.startsWith('$')) return null;
  const meta = event.metadata as unknown as StoredMetadata;
  const { eventId, occurredAt, schemaVersion, ...metadata } = meta;
  return decodeRecordedEvent({
    id: eventId,
    type: event.type,
    data: event.data,
    stream: event.streamId,
    revision: Number(event.revision),
    position: Number(event.position?.commit ?? 0n),
    occurredAt,
    schemaVersion,
    metadata,
  });
}

/**
 * EventStoreDB / KurrentDB adapter. Positions are KurrentDB commit positions: strictly
 * increasing but not contiguous, which is all the port promises to subscribers.
 */
export function getKurrentDBEventStore(options: { connectionString: string }): EventStore {
  const client = KurrentDBClient.connectionString(options.connectionString);

  async function readAll({ after, limit }: { after: number; limit: number }) {
    const out: StoredEvent[] = [];
    const fromPosition = after === 0 ? START : { commit: BigInt(after), prepare: BigInt(after) };
    for await (const resolved of client.readAll({ fromPosition, direction: FORWARDS, maxCount: limit + 1, filter: excludeSystemEvents() })) {
      const event = decode(resolved);
      if (event && event.position > after) out.push(event);
      if (out.length >= limit) break;
    }
    return out;
  }

  return {
    async appendToStream(stream, events, { expectedRevision }) {
      try {
        const result = await client.appendToStream(
          stream,
          events.map((e) =>
            jsonEvent({
              id: ulidToUuid(e.id),
              type: e.type,
              data: e.data as Record<string, unknown>,
              metadata: { ...e.metadata, eventId: e.id, occurredAt: e.occurredAt, schemaVersion: e.schemaVersion },
            }),
          ),
          { streamState: toStreamState(expectedRevision) },
        );
        const next = Number(result.nextExpectedRevision);
        return {
          nextExpectedRevision: next,
          lastPosition: Number(result.position?.commit ?? 0n),
          createdNewStream: next === events.length - 1,
        };
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          const actual = typeof error.actualState === 'bigint' ? Number(error.actualState) : 'no_stream';
          throw new WrongExpectedRevisionError(stream, expectedRevision, actual);
        }
        throw error;
      }
    },
    async readStream(stream, options) {
      const out: StoredEvent[] = [];
      const fromRevision = options?.fromRevision ? BigInt(options.fromRevision) : START;
      try {
        for await (const resolved of client.readStream(stream, { fromRevision, direction: FORWARDS })) {
          const event = decode(resolved);
          if (event) out.push(event);
        }
      } catch (error) {
        if (error instanceof StreamNotFoundError) return [];
        throw error;
      }
      return out;
    },
    readAll,
    subscribeToAll({ after }) {
      const fromPosition = after === 0 ? START : { commit: BigInt(after), prepare: BigInt(after) };
      const subscription = client.subscribeToAll({ fromPosition, filter: excludeSystemEvents() });
      async function* iterate(): AsyncGenerator<StoredEvent> {
        for await (const resolved of subscription) {
          const event = decode(resolved);
          if (event && event.position > after) yield event;
        }
      }
      const iterator = iterate();
      return {
        [Symbol.asyncIterator]: () => iterator,
        close: () => subscription.unsubscribe(),
      };
    },
    async headPosition() {
      for await (const resolved of client.readAll({ fromPosition: 'end', direction: 'backwards', maxCount: 50 })) {
        const event = resolved.event;
        if (event && !event.type.startsWith('$')) return Number(event.position?.commit ?? 0n);
      }
      return 0;
    },
    async close() {
      await client.dispose();
    },
  };
}
