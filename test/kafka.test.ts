import t from 'tap';
import { createLogger } from '@feedback/platform';
import type { ReadStore } from '@feedback/read-store';
import { createKafkaBus } from '@feedback/webhook-relay';
import { eventBusContract } from '../services/webhook-relay/src/bus/eventBus.contract.js';
import { containerRuntime } from './support/docker.js';
import { startKafka, type RunningKafka } from './support/kafka.js';

// The bus contract on a real Kafka broker: the one test/servers/install.sh fetched, started
// here on loopback, or one started by testcontainers where a container runtime exists.
async function broker(): Promise<RunningKafka | { skip: string }> {
  const local = await startKafka();
  if (!('skip' in local)) return local;
  const runtime = await containerRuntime();
  if (!runtime.available) return { skip: `${local.skip}; ${runtime.reason}` };
  const { KafkaContainer } = await import('@testcontainers/kafka');
  const container = await new KafkaContainer('confluentinc/cp-kafka:7.7.1').withKraft().start();
  return { brokers: [`${container.getHost()}:${container.getMappedPort(9093)}`], stop: async () => void (await container.stop()) };
}

const kafka = await broker();
if ('skip' in kafka) {
  t.comment(`Kafka bus suite skipped: ${kafka.skip}`);
  t.pass('skipped with the reason printed');
} else {
  t.teardown(() => kafka.stop());
  const logger = createLogger('silent', 'test');
  const topics = new WeakMap<ReadStore, string>();
  let n = 0;
  t.test('Kafka bus contract', async (t) => {
    eventBusContract(t, (eventStore, store) => {
      // One topic per fixture, the same across a restart on the same stores.
      if (!topics.has(store)) topics.set(store, `contract-${process.pid}-${n++}`);
      const topic = topics.get(store)!;
      return createKafkaBus({ brokers: kafka.brokers, clientId: 'contract', topic, partitions: 3, eventStore, store, logger, groupId: `${topic}-group` });
    });
  });
}
