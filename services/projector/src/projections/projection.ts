import type { EventType, StoredEvent } from '@feedback/events';

/** A read-model document as a projection shapes it; the projector adds `_position`. */
export type DocumentBody = { id: string };

/**
 * A read model, described rather than coded per backend: which events it handles, which
 * document each event touches, and how the document evolves. Returning null deletes it.
 * `evolve` must be deterministic (take times from the event, never the clock), so that a
 * replay, or two projectors racing, write identical documents.
 */
export interface Projection<Doc extends DocumentBody = DocumentBody> {
  collection: string;
  indexes: string[][];
  handles: readonly EventType[];
  documentId(event: StoredEvent): string | null;
  evolve(doc: Doc | null, event: StoredEvent): Doc | null;
}

export function defineProjection<Doc extends DocumentBody>(projection: Projection<Doc>): Projection<DocumentBody> {
  return projection as unknown as Projection<DocumentBody>;
}
