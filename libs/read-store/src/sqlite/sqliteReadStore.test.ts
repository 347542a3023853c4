import t from 'tap';
import { join } from 'node:path';
import { readStoreContract } from '../readStore.contract.js';
import { getSqliteReadStore } from './sqliteReadStore.js';

const dir = t.testdir();
let n = 0;
t.test('SQLite read store contract', async (t) => {
  readStoreContract(t, async () => getSqliteReadStore({ path: join(dir, `read-${n++}.sqlite`) }));
});

t.test('cached collections: what a commit changes is read back, from this connection or another', async (t) => {
  const path = join(dir, 'cached.sqlite');
  const cached = getSqliteReadStore({ path, cachedCollections: ['integrationTokens'] });
  const other = getSqliteReadStore({ path });
  t.teardown(async () => {
    await cached.close();
    await other.close();
  });
  t.equal(await cached.get('integrationTokens', 'h1'), null);
  await cached.commit([{ collection: 'integrationTokens', id: 'h1', doc: { id: 'h1', revoked: false, _position: 1 } }]);
  t.same(await cached.get('integrationTokens', 'h1'), { id: 'h1', revoked: false, _position: 1 }, 'a commit of this connection replaces a cached miss');
  await other.commit([{ collection: 'integrationTokens', id: 'h1', doc: { id: 'h1', revoked: true, _position: 2 } }]);
  t.same(await cached.get('integrationTokens', 'h1'), { id: 'h1', revoked: true, _position: 2 }, 'a revocation written by another process is seen at once');
  const doc = (await cached.get<{ id: string; revoked: boolean }>('integrationTokens', 'h1'))!;
  t.throws(() => {
    doc.revoked = false;
  }, 'a cached document cannot be changed by one caller under the others');
});
