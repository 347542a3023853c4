import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { assertField, decodeCursor, DEFAULT_GENERATION, encodeCursor, isCondition, pick, type Change, type Document, type ReadStore, type Scalar, type Where } from '../readStore.js';

export interface SqliteReadStoreOptions {
  path: string;
  prefix?: string;
  /**
   * Collections whose documents `get` keeps in memory, parsed: the few read on every request
   * (authentication). Exact, not a TTL: this connection's commits drop what they change, and any
   * other connection's commit (a CLI, another process) drops all of it (PRAGMA data_version).
   */
  cachedCollections?: string[];
}

/** Documents of one collection held by the `get` cache at most; beyond, it starts over. */
const CACHED_DOCUMENTS = 10_000;

/**
 * Read models as JSON documents in SQLite, one table per collection. Queried fields are read
 * with json_extract and indexed by expression indexes over the same expressions.
 */
export function getSqliteReadStore(options: SqliteReadStoreOptions): ReadStore {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 10000');
  // SQLite's default page cache is 2 MB: beyond that, lookups go back to read() calls.
  db.pragma('cache_size = -65536');
  const prefix = options.prefix ?? DEFAULT_GENERATION;
  const checkpoints = `${prefix}__checkpoints`;
  db.exec(`CREATE TABLE IF NOT EXISTS "${checkpoints}" (name TEXT PRIMARY KEY, position INTEGER NOT NULL, updated_at TEXT NOT NULL)`);
  db.exec('CREATE TABLE IF NOT EXISTS read_store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');

  const known = new Set<string>();
  const table = (collection: string) => {
    const name = `${prefix}_${assertField(collection)}`;
    if (!known.has(name)) {
      // A rowid table, not WITHOUT ROWID: documents are hundreds of bytes to kilobytes, and a
      // WITHOUT ROWID b-tree of rows that size took twice as long per upsert when measured.
      db.exec(`CREATE TABLE IF NOT EXISTS "${name}" (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
      known.add(name);
    }
    return name;
  };
  const expr = (field: string) => (field === 'id' ? 'id' : `json_extract(doc, '$.${assertField(field)}')`);
  const param = (value: Scalar) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);
  const whereSql = (where: Where) => {
    const clauses: string[] = [];
    const params: unknown[] = [];
    for (const [field, value] of Object.entries(where)) {
      if (value === null) clauses.push(`${expr(field)} IS NULL`);
      else if (isCondition(value)) {
        for (const [op, sql] of [['lt', '<'], ['lte', '<='], ['gt', '>'], ['gte', '>=']] as const) {
          const bound = value[op];
          if (bound === undefined) continue;
          clauses.push(`${expr(field)} ${sql} ?`);
          params.push(bound);
        }
        if (value.in) {
          clauses.push(value.in.length ? `${expr(field)} IN (${value.in.map(() => '?').join(', ')})` : '0 = 1');
          params.push(...value.in.map(param));
        }
      } else {
        clauses.push(`${expr(field)} = ?`);
        params.push(param(value));
      }
    }
    return { sql: clauses.length ? clauses.join(' AND ') : '1 = 1', params };
  };
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const parse = <T>(row: { doc: string } | undefined) => (row ? (JSON.parse(row.doc) as T) : null);

  const cachedCollections = new Set(options.cachedCollections);
  const cache = new Map<string, Map<string, Document | null>>();
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seenDataVersion: unknown = null;
  /** The cache of `collection`, emptied first if another connection has committed since it was filled. */
  const cacheOf = (collection: string) => {
    const version = dataVersion.get();
    if (version !== seenDataVersion) {
      seenDataVersion = version;
      cache.clear();
    }
    let documents = cache.get(collection);
    if (!documents || documents.size >= CACHED_DOCUMENTS) cache.set(collection, (documents = new Map()));
    return documents;
  };

  const commit = db.transaction((changes: Change[], checkpoint?: { name: string; position: number }) => {
    for (const change of changes) {
      cache.get(change.collection)?.delete(change.id);
      const name = table(change.collection);
      if (change.doc) prepare(`INSERT INTO "${name}" (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`).run(change.id, JSON.stringify(change.doc));
      else prepare(`DELETE FROM "${name}" WHERE id = ?`).run(change.id);
    }
    if (checkpoint) prepare(`INSERT INTO "${checkpoints}" (name, position, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position), updated_at = excluded.updated_at`).run(
      checkpoint.name,
      checkpoint.position,
      new Date().toISOString(),
    );
  });

  return {
    async get(collection, id) {
      const read = () => parse<Document>(prepare(`SELECT doc FROM "${table(collection)}" WHERE id = ?`).get(id) as { doc: string } | undefined);
      if (!cachedCollections.has(collection)) return read() as never;
      const documents = cacheOf(collection);
      let doc = documents.get(id);
      if (doc === undefined) {
        // Shared by every caller from now on: frozen, so that a caller changing it fails loudly.
        doc = deepFreeze(read());
        documents.set(id, doc);
      }
      return doc as never;
    },
    async findOne(collection, where) {
      const w = whereSql(where);
      return parse(prepare(`SELECT doc FROM "${table(collection)}" WHERE ${w.sql} LIMIT 1`).get(...w.params) as { doc: string } | undefined);
    },
    async find(collection, query) {
      const w = whereSql(query.where);
      const field = query.orderBy?.field ?? 'id';
      const direction = query.orderBy?.direction ?? 'asc';
      const cmp = direction === 'desc' ? '<' : '>';
      let sql = `SELECT doc FROM "${table(collection)}" WHERE ${w.sql}`;
      const params = [...w.params];
      if (query.cursor) {
        const [value, id] = decodeCursor(query.cursor);
        if (field === 'id') {
          sql += ` AND id ${cmp} ?`;
          params.push(id);
        } else {
          sql += ` AND (${expr(field)} ${cmp} ? OR (${expr(field)} = ? AND id ${cmp} ?))`;
          params.push(param(value), param(value), id);
        }
      }
      sql += field === 'id' ? ` ORDER BY id ${direction}` : ` ORDER BY ${expr(field)} ${direction}, id ${direction}`;
      sql += ' LIMIT ?';
      params.push(query.limit + 1);
      const rows = prepare(sql).all(...params) as { doc: string }[];
      const items = rows.slice(0, query.limit).map((row) => JSON.parse(row.doc));
      const last = items[items.length - 1];
      const nextCursor = rows.length > query.limit && last ? encodeCursor(pick(last, field), last.id) : null;
      return { items, nextCursor };
    },
    async count(collection, where) {
      const w = whereSql(where);
      return (prepare(`SELECT COUNT(*) AS n FROM "${table(collection)}" WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
    },
    async getMany(collection, ids) {
      const out = new Map<string, Document>();
      if (ids.length === 0) return out;
      // One statement for any number of ids: the list goes in as one JSON array.
      const rows = prepare(`SELECT id, doc FROM "${table(collection)}" WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as { id: string; doc: string }[];
      for (const row of rows) out.set(row.id, JSON.parse(row.doc));
      return out;
    },
    async commit(changes, checkpoint) {
      commit.immediate(changes, checkpoint);
    },
    async getCheckpoint(name) {
      const row = prepare(`SELECT position, updated_at FROM "${checkpoints}" WHERE name = ?`).get(name) as { position: number; updated_at: string } | undefined;
      return row ? { position: row.position, updatedAt: row.updated_at } : null;
    },
    async ensureIndexes(collection, indexes) {
      const name = table(collection);
      for (const fields of indexes) {
        const indexName = `${name}__${fields.join('_').replaceAll('.', '_')}`;
        db.exec(`CREATE INDEX IF NOT EXISTS "${indexName}" ON "${name}" (${fields.map(expr).join(', ')})`);
      }
    },
    async drop() {
      const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[];
      for (const { name } of tables) if (name.startsWith(`${prefix}_`)) db.exec(`DROP TABLE IF EXISTS "${name}"`);
      db.exec(`CREATE TABLE IF NOT EXISTS "${checkpoints}" (name TEXT PRIMARY KEY, position INTEGER NOT NULL, updated_at TEXT NOT NULL)`);
      known.clear();
      statements.clear();
      cache.clear();
    },
    withPrefix(next) {
      return getSqliteReadStore({ ...options, prefix: next });
    },
    async getActiveGeneration() {
      return (db.prepare(`SELECT value FROM read_store_meta WHERE key = 'activeGeneration'`).get() as { value: string } | undefined)?.value ?? null;
    },
    async setActiveGeneration(next) {
      db.prepare(`INSERT INTO read_store_meta (key, value) VALUES ('activeGeneration', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(next);
    },
    generation: () => prefix,
    async close() {
      db.close();
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
