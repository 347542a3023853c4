import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getSqliteEventStore } from '@feedback/event-store';
import { createLogger } from '@feedback/platform';
import type { ReadStore } from '@feedback/read-store';
import { createKafkaBus } from '@feedback/webhook-relay';
import { eventBusContract } from '../services/webhook-relay/src/bus/eventBus.contract.js';
import { containerRuntime } from './support/docker.js';
import { startKafka, type RunningKafka } from './support/kafka.js';
import { freePort, waitFor } from './support/ports.js';
import { exited, startTs } from './support/processes.js';
import { startReceiver } from './support/receiver.js';
import { commentWithUpdates, distinctDeliveries, outOfOrder, seedProject } from './support/relayTraffic.js';

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

if (!('skip' in kafka)) {
  t.test('two relays on Kafka deliver every event; one killed mid-stream loses nothing', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'feedback-kafka-relays-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const eventStore = getSqliteEventStore({ path: join(dir, 'events.sqlite') });
    t.teardown(() => eventStore.close());
    const receiver = await startReceiver(t);
    // Events are keyed by project: several projects spread the traffic over the partitions.
    const projects = [];
    for (let p = 0; p < 8; p++) projects.push(await seedProject(eventStore, receiver.url));
    const env = { DATA_DIR: dir, HOST: '127.0.0.1', LOG_LEVEL: 'info', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', BUS: 'kafka', KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_TOPIC: `relays-${process.pid}`, KAFKA_PARTITIONS: '4' };
    const start = async () => {
      const port = await freePort();
      const child = startTs('services/webhook-relay/src/main.ts', { ...env, PORT: String(port) });
      t.teardown(() => void child.kill('SIGKILL'));
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, 60_000, 'a relay to be healthy');
      return child;
    };
    const [a, b] = [await start(), await start()];
    const assignedTo = (child: typeof a) =>
      child
        .output()
        .split('\n')
        .filter((line) => line.includes('partitions assigned'))
        .map((line) => (JSON.parse(line) as { partitions: number[] }).partitions)
        .at(-1) ?? [];
    await waitFor(async () => assignedTo(a).length > 0 && assignedTo(b).length > 0 && assignedTo(a).length + assignedTo(b).length === 4, 60_000, 'both relays to share the partitions');
    t.same([...assignedTo(a), ...assignedTo(b)].sort(), [0, 1, 2, 3], 'the four partitions are spread over both');

    const comments = 80;
    const writing = (async () => {
      for (let n = 0; n < comments; n++) await commentWithUpdates(eventStore, projects[n % projects.length]!, n);
    })();
    await receiver.waitFor(40, () => true, 60_000);
    a.kill('SIGKILL');
    await exited(a);
    await writing;
    const expected = comments * 4;
    await waitFor(async () => distinctDeliveries(receiver.received) >= expected, 120_000, 'every delivery through the surviving relay');
    t.equal(distinctDeliveries(receiver.received), expected, 'each event delivered');
    t.same(outOfOrder(receiver.received), [], 'each comment’s updates in order');
    await waitFor(async () => assignedTo(b).length === 4, 60_000, 'the survivor to own every partition');
    t.pass('the survivor took every partition over');
    b.kill('SIGTERM');
    t.equal(await exited(b), 0);
  });
}
