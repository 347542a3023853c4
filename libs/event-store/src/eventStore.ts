import type { EventToAppend, StoredEvent } from '@feedback/events';

/** The port every event-store adapter implements (SQLite embedded, EventStoreDB/KurrentDB). */
export interface EventStore {
  /**
   * Appends atomically, only if the stream is at `expectedRevision`.
   * Throws WrongExpectedRevisionError otherwise; nothing is written then.
   */
  appendToStream(stream: string, events: EventToAppend[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;
  /**
   * The stream's events oldest first, from revision `fromRevision` (0 unless given); [] when
   * the stream does not exist or has nothing from there. Loads only the tail of a long stream
   * whose earlier state the caller already holds.
   */
  readStream(stream: string, options?: { fromRevision?: number }): Promise<StoredEvent[]>;
  /** Up to `limit` events of the whole log with a position greater than `after`, in order. */
  readAll(options: { after: number; limit: number }): Promise<StoredEvent[]>;
  /**
   * Every event after `after`, in order, then every later one as it is appended.
   * Consume with `for await`; `close()` ends the iteration.
   */
  subscribeToAll(options: { after: number }): Subscription;
  /** Position of the newest event, 0 for an empty log. */
  headPosition(): Promise<number>;
  close(): Promise<void>;
}

/** A stream's revision is the 0-based index of its last event. */
export type ExpectedRevision = number | 'no_stream' | 'stream_exists' | 'any';

export interface AppendResult {
  nextExpectedRevision: number;
  /** Global position of the last appended event: what read-your-writes waits for. */
  lastPosition: number;
  createdNewStream: boolean;
}

export interface Subscription extends AsyncIterable<StoredEvent> {
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${stream} is at ${actual}, expected ${expected}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export function revisionMatches(expected: ExpectedRevision, actual: number | 'no_stream'): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === 'no_stream';
  if (expected === 'stream_exists') return actual !== 'no_stream';
  return expected === actual;
}
