import t from 'tap';
import { join } from 'node:path';
import { readStoreContract } from '../readStore.contract.js';
import { getSqliteReadStore } from './sqliteReadStore.js';

const dir = t.testdir();
let n = 0;
t.test('SQLite read store contract', async (t) => {
  readStoreContract(t, async () => getSqliteReadStore({ path: join(dir, `read-${n++}.sqlite`) }));
});
