import type { Test } from 'tap';
import type { Document, ReadStore } from './readStore.js';

interface Item extends Document {
  projectId: string;
  status: string;
  archived: boolean;
  createdAt: string;
  nested: { n: number };
}

/** What the projector and the query API need of any read store. */
export function readStoreContract(t: Test, makeStore: () => Promise<ReadStore>) {
  t.test('commit writes documents and the checkpoint; get, findOne and count read them', async (t) => {
    const store = await makeStore();
    t.teardown(() => store.close());
    t.equal(await store.getCheckpoint('main'), null);
    const doc = (id: string, status: string, archived = false): Item => ({ id, _position: 1, projectId: 'p1', status, archived, createdAt: `2026-01-0${id.slice(-1)}`, nested: { n: Number(id.slice(-1)) } });
    await store.ensureIndexes('items', [['projectId', 'status'], ['projectId', 'createdAt']]);
    await store.commit([
      { collection: 'items', id: 'i1', doc: doc('i1', 'todo') },
      { collection: 'items', id: 'i2', doc: doc('i2', 'done', true) },
      { collection: 'items', id: 'i3', doc: doc('i3', 'todo') },
    ], { name: 'main', position: 3 });
    t.equal((await store.getCheckpoint('main'))?.position, 3);
    t.same((await store.get<Item>('items', 'i2'))?.status, 'done');
    t.equal(await store.get('items', 'nope'), null);
    t.equal((await store.findOne<Item>('items', { projectId: 'p1', archived: true }))?.id, 'i2');
    t.equal((await store.findOne<Item>('items', { 'nested.n': 3 }))?.id, 'i3');
    t.equal(await store.count('items', { projectId: 'p1', status: 'todo' }), 2);
    const many = await store.getMany('items', ['i1', 'i3', 'missing']);
    t.same([...many.keys()].sort(), ['i1', 'i3']);
    await store.commit([{ collection: 'items', id: 'i1', doc: null }], { name: 'main', position: 4 });
    t.equal(await store.get('items', 'i1'), null);
    t.equal((await store.getCheckpoint('main'))?.position, 4);
  });

  t.test('find pages with a cursor, sorted, filtered, without overlap or gap', async (t) => {
    const store = await makeStore();
    t.teardown(() => store.close());
    const docs = Array.from({ length: 25 }, (_, i) => ({
      collection: 'paged',
      id: `c${String(i).padStart(3, '0')}`,
      doc: { id: `c${String(i).padStart(3, '0')}`, _position: i + 1, projectId: i % 5 === 0 ? 'other' : 'p', rank: i % 3 },
    }));
    await store.commit(docs, { name: 'paging', position: 25 });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { items: Document[]; nextCursor: string | null } = await store.find('paged', { where: { projectId: 'p' }, orderBy: { field: 'id', direction: 'desc' }, limit: 7, cursor });
      seen.push(...page.items.map((d) => d.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    const expected = docs.filter((d) => d.doc.projectId === 'p').map((d) => d.id).reverse();
    t.same(seen, expected, 'newest first, every item once');
    t.equal(pages, 3);
    const byRank: string[] = [];
    cursor = null;
    do {
      const page: { items: Document[]; nextCursor: string | null } = await store.find('paged', { where: {}, orderBy: { field: 'rank', direction: 'asc' }, limit: 4, cursor });
      byRank.push(...page.items.map((d) => d.id));
      cursor = page.nextCursor;
    } while (cursor);
    t.equal(byRank.length, 25);
    t.equal(new Set(byRank).size, 25, 'ties on the sort field are broken by id');
  });

  t.test('ranges and sets filter; a commit without a checkpoint leaves it alone', async (t) => {
    const store = await makeStore();
    t.teardown(() => store.close());
    await store.commit([{ collection: 'queue', id: 'seed', doc: { id: 'seed', _position: 1, due: 0, part: 9, state: 'done' } }], { name: 'q', position: 7 });
    const docs = Array.from({ length: 12 }, (_, i) => ({ collection: 'queue', id: `d${String(i).padStart(2, '0')}`, doc: { id: `d${String(i).padStart(2, '0')}`, _position: 1, due: i * 10, part: i % 3, state: 'pending' } }));
    await store.commit(docs);
    t.equal((await store.getCheckpoint('q'))?.position, 7);
    const due = await store.find('queue', { where: { state: 'pending', due: { lte: 50 }, part: { in: [0, 2] } }, orderBy: { field: 'due', direction: 'asc' }, limit: 50 });
    t.same(due.items.map((d) => d.id), ['d00', 'd02', 'd03', 'd05']);
    t.equal(await store.count('queue', { due: { gt: 30, lt: 90 } }), 5);
    t.equal(await store.count('queue', { part: { in: [] } }), 0, 'an empty set matches nothing');
    t.equal((await store.findOne('queue', { due: { gte: 110 } }))?.id, 'd11');
  });

  t.test('a checkpoint never moves back; writers racing on one new document and checkpoint all succeed', async (t) => {
    const store = await makeStore();
    t.teardown(() => store.close());
    await store.commit([], { name: 'race', position: 9 });
    await store.commit([], { name: 'race', position: 4 });
    t.equal((await store.getCheckpoint('race'))?.position, 9, 'a writer behind another does not rewind it');
    // Two projectors (a service and the CLI) catching up at once write the same documents.
    await Promise.all(Array.from({ length: 8 }, (_, i) => store.commit(
      [{ collection: 'raced', id: 'same', doc: { id: 'same', _position: 3 } }],
      { name: 'fresh', position: 3 + (i % 2) },
    )));
    // Which racing writer lands last is not defined (FerretDB's updates are not atomic under
    // concurrency); a checkpoint behind only replays batches the documents already hold.
    t.ok([3, 4].includes((await store.getCheckpoint('fresh'))?.position ?? 0));
    t.equal((await store.get('raced', 'same'))?._position, 3);
  });

  t.test('drop removes the collections and checkpoints', async (t) => {
    const store = await makeStore();
    t.teardown(() => store.close());
    await store.commit([{ collection: 'gone', id: 'x', doc: { id: 'x', _position: 1 } }], { name: 'dropme', position: 1 });
    await store.drop();
    t.equal(await store.get('gone', 'x'), null);
    t.equal(await store.getCheckpoint('dropme'), null);
  });
}
