import { projections } from '@feedback/projector';
import type { Document, ReadStore } from '@feedback/read-store';

/** Every document of every read model, in id order: what two read stores must agree on. */
export async function dumpReadModels(readStore: ReadStore): Promise<Record<string, Document[]>> {
  const out: Record<string, Document[]> = {};
  for (const { collection } of projections) {
    const docs: Document[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Document[]; nextCursor: string | null } = await readStore.find(collection, { where: {}, limit: 500, cursor });
      docs.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    out[collection] = docs;
  }
  return out;
}
