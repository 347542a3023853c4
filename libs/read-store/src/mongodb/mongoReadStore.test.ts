import t from 'tap';
import { containerRuntime } from '../../../../test/support/docker.js';
import { startMongo } from '../../../../test/support/ferretdb.js';
import { readStoreContract } from '../readStore.contract.js';
import { getMongoReadStore } from './mongoReadStore.js';

let n = 0;

// FerretDB v1 (MongoDB wire protocol, no transactions, no change streams): what CI has.
const mongo = await startMongo();
if ('skip' in mongo) {
  console.log(`# skipping the MongoDB read store contract on FerretDB: ${mongo.skip}`);
  t.pass(`skipped: ${mongo.skip}`);
} else {
  t.teardown(() => mongo.stop());
  t.test('MongoDB read store contract (FerretDB or MONGODB_URL)', async (t) => {
    readStoreContract(t, async () => getMongoReadStore({ url: mongo.url, database: `contract${n++}` }));
  });
}

// A real MongoDB where a container runtime exists.
const runtime = await containerRuntime();
if (!runtime.available) {
  console.log(`# skipping the MongoDB read store contract on a real MongoDB: ${runtime.reason}`);
} else {
  t.test('MongoDB read store contract (MongoDB 7 in a container)', async (t) => {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer('mongo:7').withExposedPorts(27017).withWaitStrategy(Wait.forLogMessage(/Waiting for connections/)).start();
    t.teardown(() => container.stop());
    const url = `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/`;
    readStoreContract(t, async () => getMongoReadStore({ url, database: `contract${n++}` }));
  });
}
