import t from 'tap';
import { containerRuntime } from '../../../../test/support/docker.js';
import { eventStoreContract } from '../eventStore.contract.js';
import { getKurrentDBEventStore } from './kurrentdbEventStore.js';

// KurrentDB has no package for this machine: the suite runs where a container runtime exists
// (testcontainers), or against a server named by KURRENTDB_URL.
const runtime = process.env.KURRENTDB_URL ? ({ available: true } as const) : await containerRuntime();

if (!runtime.available) {
  console.log(`# skipping the KurrentDB event store contract: ${runtime.reason}`);
  t.pass(`skipped: ${runtime.reason}`);
} else {
  let connectionString = process.env.KURRENTDB_URL ?? '';
  if (!connectionString) {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer('docker.kurrent.io/kurrent-latest/kurrentdb:25.1')
      .withEnvironment({ KURRENTDB_INSECURE: 'true', KURRENTDB_RUN_PROJECTIONS: 'None' })
      .withExposedPorts(2113)
      .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
      .start();
    t.teardown(() => container.stop());
    connectionString = `kurrentdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`;
  }
  t.test('KurrentDB event store contract', async (t) => {
    eventStoreContract(t, async () => getKurrentDBEventStore({ connectionString }));
  });
}
