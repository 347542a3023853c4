import { MongoClient, type AnyBulkWriteOperation, type Db, type Filter, type Sort } from 'mongodb';
import { assertField, decodeCursor, DEFAULT_GENERATION, encodeCursor, isCondition, pick, type Condition, type Document, type ReadStore, type Scalar, type Where } from '../readStore.js';

type MongoDoc = Omit<Document, 'id'> & { _id: string };
const toDoc = (raw: MongoDoc | null): Document | null => {
  if (!raw) return null;
  const { _id, ...rest } = raw;
  return { id: _id, ...rest } as Document;
};
const fieldOf = (field: string) => (field === 'id' ? '_id' : assertField(field));
const conditionOf = (value: Scalar | Condition) => {
  if (!isCondition(value)) return value;
  const out: Record<string, unknown> = {};
  for (const op of ['lt', 'lte', 'gt', 'gte', 'in'] as const) if (value[op] !== undefined) out[`$${op}`] = value[op];
  return out;
};
const filterOf = (where: Where): Filter<MongoDoc> =>
  Object.fromEntries(Object.entries(where).map(([field, value]) => [fieldOf(field), conditionOf(value)])) as Filter<MongoDoc>;

/**
 * Two upserts of one new _id racing (the projector and an operator's CLI catching up the same
 * read models) can both try the insert; one fails with E11000. The document exists by then, so
 * the same idempotent write, repeated, updates it.
 */
async function retryingDuplicateKey<T>(write: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if ((error as { code?: unknown }).code !== 11000 || attempt >= attempts) throw error;
    }
  }
}

/**
 * Read models in MongoDB, one collection per read model. Uses only single-document writes and
 * ordered bulk writes (no transactions, no change streams), so FerretDB serves it too: the
 * checkpoint is written after the documents, and documents carry their own position.
 */
export async function getMongoReadStore(options: { url: string; database: string; prefix?: string }): Promise<ReadStore> {
  const client = new MongoClient(options.url, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  return bind(client, client.db(options.database), options.prefix ?? DEFAULT_GENERATION, true);
}

function bind(client: MongoClient, db: Db, prefix: string, ownsClient: boolean): ReadStore {
  const collection = (name: string) => db.collection<MongoDoc>(`${prefix}_${assertField(name)}`);
  const checkpoints = db.collection<{ _id: string; position: number; updatedAt: string }>(`${prefix}__checkpoints`);
  const meta = db.collection<{ _id: string; value: string }>('read_store_meta');

  return {
    async get(name, id) {
      return toDoc(await collection(name).findOne({ _id: id })) as never;
    },
    async findOne(name, where) {
      return toDoc(await collection(name).findOne(filterOf(where))) as never;
    },
    async find(name, query) {
      const field = fieldOf(query.orderBy?.field ?? 'id');
      const dir = query.orderBy?.direction === 'desc' ? -1 : 1;
      const cmp = dir === -1 ? '$lt' : '$gt';
      const filter: Record<string, unknown> = { ...filterOf(query.where) };
      if (query.cursor) {
        const [value, id] = decodeCursor(query.cursor);
        if (field === '_id') filter._id = { [cmp]: id };
        else filter.$or = [{ [field]: { [cmp]: value } }, { [field]: value, _id: { [cmp]: id } }];
      }
      const sort: Sort = field === '_id' ? { _id: dir } : { [field]: dir, _id: dir };
      const rows = await collection(name).find(filter as Filter<MongoDoc>).sort(sort).limit(query.limit + 1).toArray();
      const items = rows.slice(0, query.limit).map((row) => toDoc(row)!);
      const last = items[items.length - 1];
      const nextCursor = rows.length > query.limit && last ? encodeCursor(pick(last, query.orderBy?.field ?? 'id'), last.id) : null;
      return { items: items as never, nextCursor };
    },
    async count(name, where) {
      return collection(name).countDocuments(filterOf(where));
    },
    async getMany(name, ids) {
      const out = new Map<string, Document>();
      if (ids.length === 0) return out;
      for (const raw of await collection(name).find({ _id: { $in: ids } }).toArray()) out.set(raw._id, toDoc(raw)!);
      return out;
    },
    async commit(changes, checkpoint) {
      const byCollection = new Map<string, AnyBulkWriteOperation<MongoDoc>[]>();
      for (const change of changes) {
        const ops = byCollection.get(change.collection) ?? [];
        if (change.doc) {
          const { id, ...rest } = change.doc;
          ops.push({ replaceOne: { filter: { _id: id }, replacement: { _id: id, ...rest } as MongoDoc, upsert: true } });
        } else ops.push({ deleteOne: { filter: { _id: change.id } } });
        byCollection.set(change.collection, ops);
      }
      for (const [name, ops] of byCollection) await retryingDuplicateKey(() => collection(name).bulkWrite(ops, { ordered: true }));
      if (checkpoint) await retryingDuplicateKey(() => checkpoints.updateOne(
        { _id: checkpoint.name },
        { $max: { position: checkpoint.position }, $set: { updatedAt: new Date().toISOString() } },
        { upsert: true },
      ));
    },
    async getCheckpoint(name) {
      const row = await checkpoints.findOne({ _id: name });
      return row ? { position: row.position, updatedAt: row.updatedAt } : null;
    },
    async ensureIndexes(name, indexes) {
      for (const fields of indexes) await collection(name).createIndex(Object.fromEntries(fields.map((f) => [fieldOf(f), 1])));
    },
    async drop() {
      const names = await db.listCollections({}, { nameOnly: true }).toArray();
      for (const { name } of names) if (name.startsWith(`${prefix}_`)) await db.collection(name).drop();
    },
    withPrefix(next) {
      return bind(client, db, next, false);
    },
    async getActiveGeneration() {
      return (await meta.findOne({ _id: 'activeGeneration' }))?.value ?? null;
    },
    async setActiveGeneration(next) {
      await retryingDuplicateKey(() => meta.updateOne({ _id: 'activeGeneration' }, { $set: { value: next } }, { upsert: true }));
    },
    generation: () => prefix,
    async close() {
      if (ownsClient) await client.close();
    },
  };
}
