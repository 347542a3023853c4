/** Filters on top-level or dotted fields: equality, plus ranges and sets for work queues. */
export type Scalar = string | number | boolean | null;
export interface Condition {
  lt?: number | string;
  lte?: number | string;
  gt?: number | string;
  gte?: number | string;
  in?: Scalar[];
}
export type Where = Record<string, Scalar | Condition>;

export const isCondition = (value: Scalar | Condition): value is Condition => typeof value === 'object' && value !== null;

export interface FindQuery {
  where: Where;
  /** Sorted by this field, ties broken by id in the same direction. Default: id. */
  orderBy?: { field: string; direction: 'asc' | 'desc' };
  limit: number;
  /** Opaque, from a previous page's nextCursor. */
  cursor?: string | null;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface Document {
  id: string;
  /** Position of the last event applied to this document: replaying it again changes nothing. */
  _position: number;
  [field: string]: unknown;
}

export interface Change {
  collection: string;
  id: string;
  /** null deletes the document. */
  doc: Document | null;
}

export interface Checkpoint {
  position: number;
  updatedAt: string;
}

/**
 * The port for read models. Queries serve the API; `getMany` and `commit` serve the projector,
 * which writes a batch of documents and its checkpoint together.
 */
export interface ReadStore {
  get<T extends { id: string } = Document>(collection: string, id: string): Promise<T | null>;
  findOne<T extends { id: string } = Document>(collection: string, where: Where): Promise<T | null>;
  find<T extends { id: string } = Document>(collection: string, query: FindQuery): Promise<Page<T>>;
  count(collection: string, where: Where): Promise<number>;
  getMany(collection: string, ids: string[]): Promise<Map<string, Document>>;
  /** Applies every change, then moves the checkpoint (if given). Safe to repeat after a crash. */
  commit(changes: Change[], checkpoint?: { name: string; position: number }): Promise<void>;
  getCheckpoint(name: string): Promise<Checkpoint | null>;
  /** Each entry is one index over the listed fields, in order. */
  ensureIndexes(collection: string, indexes: string[][]): Promise<void>;
  /** Drops every collection and checkpoint of this store (used by rebuilds into fresh storage). */
  drop(): Promise<void>;
  /** The same backend under another prefix: a separate generation of every read model. */
  withPrefix(prefix: string): ReadStore;
  /** The generation readers should use; null until a rebuild first switches it. */
  getActiveGeneration(): Promise<string | null>;
  setActiveGeneration(prefix: string): Promise<void>;
  /** The prefix this store reads and writes now (a following store changes it on a switch). */
  generation(): string;
  close(): Promise<void>;
}

export const DEFAULT_GENERATION = 'rm';

const fieldPattern = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
export function assertField(field: string): string {
  if (!fieldPattern.test(field)) throw new Error(`Invalid field name ${field}`);
  return field;
}

export function encodeCursor(value: unknown, id: string): string {
  return Buffer.from(JSON.stringify([value, id])).toString('base64url');
}

export class InvalidCursorError extends Error {
  constructor() {
    super('cursor: invalid cursor');
  }
}

export function decodeCursor(cursor: string): [Scalar, string] {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[1] === 'string') return parsed as [Scalar, string];
  } catch {
    // fall through
  }
  throw new InvalidCursorError();
}

/** Reads a dotted path out of a document. */
export function pick(doc: Record<string, unknown>, path: string): unknown {
  let value: unknown = doc;
  for (const key of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[key];
  return value;
}
