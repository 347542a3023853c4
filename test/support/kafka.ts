import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { freePorts, waitFor, waitForPort } from './ports.js';
import { terminate } from './processes.js';

export const KAFKA_VERSION = '3.9.1';
const cache = process.env.FEEDBACK_TEST_SERVERS ?? join(homedir(), '.cache', 'feedback-test-servers');
const kafkaDir = join(cache, `kafka-${KAFKA_VERSION}`);

export interface RunningKafka {
  brokers: string[];
  stop(): Promise<void>;
}

/**
 * A Kafka broker for a test: KAFKA_BROKERS when set, else a single-node KRaft broker started
 * here on loopback from the jars test/servers/install.sh fetched. The reason when neither.
 */
export async function startKafka(): Promise<RunningKafka | { skip: string }> {
  if (process.env.KAFKA_BROKERS) return { brokers: process.env.KAFKA_BROKERS.split(','), stop: async () => {} };
  if (!existsSync(join(kafkaDir, '.complete'))) return { skip: `no Kafka ${KAFKA_VERSION} jars in ${kafkaDir} (run test/servers/install.sh) and no KAFKA_BROKERS` };
  if (spawnSync('java', ['-version']).status !== 0) return { skip: 'no java on PATH to run the Kafka broker, and no KAFKA_BROKERS' };
  const dir = mkdtempSync(join(tmpdir(), 'kafka-'));
  const [port, controllerPort] = (await freePorts(2)) as [number, number];
  const properties = join(dir, 'server.properties');
  writeFileSync(
    properties,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
      'controller.listener.names=CONTROLLER',
      'inter.broker.listener.name=PLAINTEXT',
      'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      `log.dirs=${join(dir, 'logs')}`,
      'num.partitions=1',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=4',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      'auto.create.topics.enable=false',
    ].join('\n'),
  );
  const log4j = join(dir, 'log4j.properties');
  writeFileSync(log4j, ['log4j.rootLogger=ERROR, stderr', 'log4j.appender.stderr=org.apache.log4j.ConsoleAppender', 'log4j.appender.stderr.Target=System.err', 'log4j.appender.stderr.layout=org.apache.log4j.PatternLayout', 'log4j.appender.stderr.layout.ConversionPattern=[kafka] %p %m%n'].join('\n'));
  const java = ['-Xms128m', '-Xmx512m', `-Dlog4j.configuration=file:${log4j}`, '-cp', `${join(kafkaDir, 'libs')}/*`];
  const clusterId = randomBytes(16).toString('base64url');
  // `--cluster-id=…`, not `-t …`: an id that starts with '-' (1 in 64) is otherwise taken for an option.
  const format = spawnSync('java', [...java, 'kafka.tools.StorageTool', 'format', `--cluster-id=${clusterId}`, '-c', properties], { encoding: 'utf8' });
  if (format.status !== 0) throw new Error(`formatting Kafka storage failed: ${format.stderr || format.stdout}`);
  const child: ChildProcess = spawn('java', [...java, 'kafka.Kafka', properties], { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitForPort(port, 60_000, 'Kafka to listen');
  const brokers = [`127.0.0.1:${port}`];
  // Listening is not serving: wait until the broker answers metadata requests.
  const admin = new Kafka({ clientId: 'test-probe', brokers, logLevel: logLevel.NOTHING }).admin();
  await waitFor(async () => {
    try {
      await admin.connect();
      await admin.describeCluster();
      return true;
    } catch {
      return false;
    }
  }, 60_000, 'Kafka to answer');
  await admin.disconnect();
  return {
    brokers,
    async stop() {
      await terminate(child, 15_000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
