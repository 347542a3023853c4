import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { decodeRecordedEvent, type EventToAppend, type StoredEvent } from '@feedback/events';
import { revisionMatches, WrongExpectedRevisionError, type AppendResult, type EventStore, type ExpectedRevision } from '../eventStore.js';
import { createWaker, pollingSubscription } from '../pollingSubscription.js';

interface EventRow {
  position: number;
  id: string;
  stream: string;
  revision: number;
  type: string;
  schema_version: number;
  data: string;
  metadata: string;
  occurred_at: string;
}

const schema = `
CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  stream TEXT NOT NULL,
  revision INTEGER NOT NULL,
  type TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL,
  occurred_at TEXT NOT NULL,
  UNIQUE (stream, revision)
);
CREATE TABLE IF NOT EXISTS streams (
  stream TEXT PRIMARY KEY,
  revision INTEGER NOT NULL
) WITHOUT ROWID;
`;

export interface SqliteEventStoreOptions {
  /** File path, or ':memory:' for a throwaway store. */
  path: string;
  /** How often to look for events appended by other processes. */
  pollMs?: number;
  /** SQLite's page cache, in MiB (64 unless given). */
  cacheMb?: number;
}

/**
 * Embedded event store on one SQLite file. Appends run in BEGIN IMMEDIATE transactions, so
 * writers (this process, the CLI, other services) are serialised by SQLite's write lock:
 * positions are handed out in commit order and readers never see a gap. WAL with
 * synchronous=FULL makes an append durable once it returns.
 */
export function getSqliteEventStore(options: SqliteEventStoreOptions): EventStore {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 10000');
  // SQLite's default page cache is 2 MB: beyond that, lookups go back to read() calls.
  db.pragma(`cache_size = -${(options.cacheMb ?? 64) * 1024}`);
  db.exec(schema);

  const selectRevision = db.prepare<[string], { revision: number }>('SELECT revision FROM streams WHERE stream = ?');
  const insertEvent = db.prepare(
    `INSERT INTO events (id, stream, revision, type, schema_version, data, metadata, occurred_at)
     VALUES (@id, @stream, @revision, @type, @schemaVersion, @data, @metadata, @occurredAt)`,
  );
  const upsertStream = db.prepare(
    'INSERT INTO streams (stream, revision) VALUES (?, ?) ON CONFLICT (stream) DO UPDATE SET revision = excluded.revision',
  );
  const selectStream = db.prepare<[string, number], EventRow>('SELECT * FROM events WHERE stream = ? AND revision >= ? ORDER BY revision');
  const selectAll = db.prepare<[number, number], EventRow>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?');
  const selectHead = db.prepare<[], { position: number | null }>('SELECT MAX(position) AS position FROM events');

  const waker = createWaker(options.pollMs ?? 20);

  const appendOne = db.transaction((stream: string, events: EventToAppend[], expected: ExpectedRevision): AppendResult => {
    const actual = selectRevision.get(stream)?.revision ?? ('no_stream' as const);
    if (!revisionMatches(expected, actual)) throw new WrongExpectedRevisionError(stream, expected, actual);
    let revision = actual === 'no_stream' ? -1 : actual;
    let lastPosition = 0;
    for (const event of events) {
      revision += 1;
      const info = insertEvent.run({
        id: event.id,
        stream,
        revision,
        type: event.type,
        schemaVersion: event.schemaVersion,
        data: JSON.stringify(event.data),
        metadata: JSON.stringify(event.metadata),
        occurredAt: event.occurredAt,
      });
      lastPosition = Number(info.lastInsertRowid);
    }
    upsertStream.run(stream, revision);
    return { nextExpectedRevision: revision, lastPosition, createdNewStream: actual === 'no_stream' };
  });

  // Group commit: appends asked for in one turn of the event loop share one transaction, so
  // 64 concurrent requests pay for one fsync instead of 64. Each append still checks its own
  // expected revision inside a savepoint (better-sqlite3 nests transactions that way): a
  // failing one (a conflict, a duplicate event id) is rolled back alone, and appends to one
  // stream in one group see each other, in the order they were asked for.
  type Pending = { stream: string; events: EventToAppend[]; expected: ExpectedRevision; resolve: (r: AppendResult) => void; reject: (e: unknown) => void };
  let group: Pending[] = [];
  const commitGroup = db.transaction((members: Pending[]) =>
    members.map((m): { ok: AppendResult } | { failed: unknown } => {
      try {
        return { ok: appendOne(m.stream, m.events, m.expected) };
      } catch (error) {
        return { failed: error };
      }
    }),
  );
  function flush() {
    const members = group;
    group = [];
    if (members.length === 0) return;
    let outcomes: ReturnType<typeof commitGroup>;
    try {
      outcomes = commitGroup.immediate(members);
    } catch (error) {
      for (const m of members) m.reject(error);
      return;
    }
    members.forEach((m, i) => {
      const outcome = outcomes[i]!;
      if ('ok' in outcome) m.resolve(outcome.ok);
      else m.reject(outcome.failed);
    });
    waker.wake();
  }

  const decode = (row: EventRow): StoredEvent =>
    decodeRecordedEvent({
      id: row.id,
      type: row.type,
      data: JSON.parse(row.data),
      stream: row.stream,
      revision: row.revision,
      position: row.position,
      occurredAt: row.occurred_at,
      schemaVersion: row.schema_version,
      metadata: JSON.parse(row.metadata),
    });

  const readAll = async ({ after, limit }: { after: number; limit: number }) => selectAll.all(after, limit).map(decode);

  return {
    async appendToStream(stream, events, { expectedRevision }) {
      if (events.length === 0) throw new Error('appendToStream needs at least one event');
      return new Promise<AppendResult>((resolve, reject) => {
        if (group.push({ stream, events, expected: expectedRevision, resolve, reject }) === 1) setImmediate(flush);
      });
    },
    async readStream(stream, options) {
      return selectStream.all(stream, options?.fromRevision ?? 0).map(decode);
    },
    readAll,
    subscribeToAll({ after }) {
      return pollingSubscription({ readAll, waitForAppend: (signal) => waker.wait(signal) }, after);
    },
    async headPosition() {
      return selectHead.get()?.position ?? 0;
    },
    async close() {
      flush();
      waker.wake();
      db.close();
    },
  };
}
