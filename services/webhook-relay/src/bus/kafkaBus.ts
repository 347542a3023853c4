import { Kafka, logLevel, Partitioners, type Consumer, type Producer } from 'kafkajs';
import { decodeRecordedEvent, streamCategory, type StoredEvent } from '@feedback/events';
import type { EventStore } from '@feedback/event-store';
import type { Logger } from '@feedback/platform';
import type { ReadStore } from '@feedback/read-store';
import { projectOf } from '../relayState.js';
import type { BusHandlers, Commit, EventBus } from './eventBus.js';
import { followLog, type LogFollower } from './followLog.js';

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  topic: string;
  partitions: number;
  /** Followed by the forwarder, which publishes it to the topic. */
  eventStore: EventStore;
  /** Where the forwarder remembers how far it published. */
  store: ReadStore;
  logger: Logger;
  groupId?: string;
}

const FORWARDER_CHECKPOINT = 'relay-kafka-forwarder';

/**
 * The Kafka bus. Two parts run in every relay instance:
 * - the forwarder follows the event store's log and publishes each commit as one message,
 *   keyed by project, so that every event of a project (each of its comments, and its webhook
 *   settings too) lands in one partition in log order. It moves its checkpoint only after the
 *   broker acknowledged. Only one instance forwards at a time: the one the group
 *   `{groupId}-forwarder` gives the single partition of `{topic}.forwarder` to, so when it dies
 *   another instance takes over.
 * - the consumer reads the topic in the group `{groupId}`: more instances, partitions spread.
 * Both are at least once; the relay's intake makes a second delivery of a commit harmless.
 */
export function createKafkaBus(options: KafkaBusOptions): EventBus {
  const { topic, logger } = options;
  const groupId = options.groupId ?? 'feedback-webhook-relay';
  const leaseTopic = `${topic}.forwarder`;
  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    logLevel: logLevel.NOTHING,
    retry: { retries: 10, initialRetryTime: 300, maxRetryTime: 10_000 },
  });
  let consumer: Consumer | null = null;
  let lease: Consumer | null = null;
  let producer: Producer | null = null;
  let forwarding: LogFollower | null = null;
  let consumerProblem: string | null = null;
  const projectOfComment = new Map<string, string>();

  async function keyOf(commit: Commit): Promise<string> {
    for (const event of commit.events) {
      const projectId = projectOf(event);
      if (projectId) {
        if (event.type === 'CommentCreated') projectOfComment.set(event.stream, projectId);
        return projectId;
      }
    }
    const stream = commit.events[0]!.stream;
    if (streamCategory(stream) !== 'comment') return stream;
    let projectId = projectOfComment.get(stream);
    if (!projectId) {
      const [created] = await options.eventStore.readStream(stream);
      projectId = created?.type === 'CommentCreated' ? created.data.projectId : stream;
      if (projectOfComment.size > 100_000) projectOfComment.clear();
      projectOfComment.set(stream, projectId);
    }
    return projectId;
  }

  function startForwarding(): LogFollower {
    return followLog({ eventStore: options.eventStore, store: options.store, checkpoint: FORWARDER_CHECKPOINT, logger, what: 'forwarder' }, async (commits) => {
      const messages = await Promise.all(commits.map(async (commit) => ({ key: await keyOf(commit), value: JSON.stringify(commit.events) })));
      await producer!.send({ topic, messages, acks: -1 });
    });
  }

  async function ensureTopics() {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const existing = new Set(await admin.listTopics());
      const wanted = [
        { topic, numPartitions: options.partitions },
        { topic: leaseTopic, numPartitions: 1 },
      ].filter((t) => !existing.has(t.topic));
      // Two instances may race to create them; the loser's "already exists" is fine.
      if (wanted.length) await admin.createTopics({ topics: wanted, waitForLeaders: true }).catch(() => undefined);
    } finally {
      await admin.disconnect();
    }
  }

  return {
    async start(handlers: BusHandlers) {
      await ensureTopics();
      producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, maxInFlightRequests: 1, allowAutoTopicCreation: false });
      await producer.connect();

      lease = kafka.consumer({ groupId: `${groupId}-forwarder`, sessionTimeout: 10_000, heartbeatInterval: 1000 });
      await lease.connect();
      await lease.subscribe({ topic: leaseTopic, fromBeginning: false });
      lease.on(lease.events.GROUP_JOIN, ({ payload }) => {
        const mine = (payload.memberAssignment[leaseTopic] ?? []).includes(0);
        if (mine && !forwarding) forwarding = startForwarding();
        if (!mine && forwarding) {
          const previous = forwarding;
          forwarding = null;
          void previous.stop();
        }
      });
      lease.on(lease.events.REBALANCING, () => {
        const previous = forwarding;
        forwarding = null;
        void previous?.stop();
      });
      await lease.run({ eachMessage: async () => {} });

      consumer = kafka.consumer({ groupId, sessionTimeout: 10_000, heartbeatInterval: 1000 });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => handlers.assigned(payload.memberAssignment[topic] ?? []));
      consumer.on(consumer.events.REBALANCING, () => handlers.assigned([]));
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        consumerProblem = `consumer: ${payload.error.message}`;
      });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: options.partitions,
        eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
          if (!isRunning() || isStale() || batch.messages.length === 0) return;
          const commits: Commit[] = batch.messages.map((message) => ({
            events: (JSON.parse(message.value!.toString('utf8')) as unknown[]).map((raw) => decodeRecordedEvent(raw as never) as StoredEvent),
          }));
          await handlers.handle({ partition: batch.partition, commits });
          resolveOffset(batch.lastOffset());
          const next = (BigInt(batch.lastOffset()) + 1n).toString();
          await consumer!.commitOffsets([{ topic, partition: batch.partition, offset: next }]);
          await heartbeat();
          consumerProblem = null;
        },
      });
    },
    async stop() {
      await forwarding?.stop();
      forwarding = null;
      await consumer?.disconnect();
      await lease?.disconnect();
      await producer?.disconnect();
    },
    problem: () => consumerProblem ?? forwarding?.problem() ?? null,
    // Partitions move between relays: no single position says what every consumer has had.
    handedOver: async () => null,
  };
}
