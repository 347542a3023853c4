import t from 'tap';
import { startMongo } from '../../../../test/support/ferretdb.js';
import { readStoreContract } from '../readStore.contract.js';
import { getMongoReadStore } from './mongoReadStore.js';

const mongo = await startMongo();
if ('skip' in mongo) {
  console.log(`# skipping the MongoDB read store contract: ${mongo.skip}`);
  t.pass(`skipped: ${mongo.skip}`);
} else {
  t.teardown(() => mongo.stop());
  let n = 0;
  t.test('MongoDB read store contract', async (t) => {
    readStoreContract(t, async () => getMongoReadStore({ url: mongo.url, database: `contract${n++}` }));
  });
}
