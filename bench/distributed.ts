import { join } from 'node:path';
import { distributedEnv } from '../test/support/distributedEnv.js';
import { startMongo } from '../test/support/ferretdb.js';
import { startKafka } from '../test/support/kafka.js';
import { freePorts, waitFor } from '../test/support/ports.js';
import { measureHttp, measureWebhookRuns, type Ceiling, type ServiceUnderTest } from './measure.js';
import { runNode, startNode, stop } from './processes.js';
import type { HttpRow, Results } from './results.js';

export type DistributedResults = { http: { rows: HttpRow[]; lag: Results['projectionLag'][number] }; webhooks: Results['webhooks'] };

/**
 * The distributed mode on this machine: command-api, projector, two query-apis, two relays and
 * the gateway, each a process, on FerretDB (read models, relay state) and a Kafka broker, with
 * the SQLite event store file shared (production puts EventStoreDB there, which this machine
 * cannot run). A smaller log than the embedded run's: FerretDB's SQLite backend writes read
 * models at a few hundred documents a second, so a million events would not fit the budget.
 */
export async function runDistributed(ceiling: Ceiling, scratch: string, say: (line: string) => void): Promise<{ skip: string } | DistributedResults> {
  const mongo = await startMongo();
  if ('skip' in mongo) return { skip: mongo.skip };
  const kafka = await startKafka();
  if ('skip' in kafka) {
    await mongo.stop();
    return { skip: kafka.skip };
  }
  const started: ReturnType<typeof startNode>[] = [];
  try {
    const env = {
      ...distributedEnv({ dataDir: join(scratch, 'distributed'), mongoUrl: mongo.url, brokers: kafka.brokers, name: `bench${process.pid}` }),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      BENCH_EVENTS: process.env.BENCH_DISTRIBUTED_EVENTS ?? '10000',
      BENCH_PROJECTS: '20',
      BENCH_BIG_PROJECT: process.env.BENCH_DISTRIBUTED_BIG_PROJECT ?? '3000',
    };
    say(`distributed: seeding ${env.BENCH_EVENTS} events`);
    const seeded = await runNode<{ token: string; inboundToken: string; bigProject: { publicKey: string }; bigIdsFile: string }>('bench/seed.ts', env);
    const ports = await freePorts(7);
    const url = (i: number) => `http://127.0.0.1:${ports[i]}`;
    const services: Array<[string, Record<string, string>]> = [
      ['services/command-api/src/main.ts', {}],
      ['services/projector/src/main.ts', {}],
      ['services/query-api/src/main.ts', {}],
      ['services/query-api/src/main.ts', {}],
      ['services/webhook-relay/src/main.ts', {}],
      ['services/webhook-relay/src/main.ts', {}],
      ['apps/gateway/src/main.ts', { GATEWAY_COMMAND_URL: url(0), GATEWAY_QUERY_URLS: `${url(2)},${url(3)}` }],
    ];
    for (const [i, [entry, extra]] of services.entries()) {
      started.push(startNode(entry, { ...env, ...extra, PORT: String(ports[i]) }));
      await waitFor(async () => (await fetch(`${url(i)}/health`)).ok, 120_000, `${entry} to be healthy`);
    }
    const service: ServiceUnderTest = {
      mode: 'distributed',
      url: url(6),
      projectorMetricsUrl: `${url(1)}/metrics`,
      // A relay's lag on Kafka is per partition and approximate; the projector's is exact.
      lagMetricsUrls: [`${url(1)}/metrics`],
      token: seeded.token,
      inboundToken: seeded.inboundToken,
      domainId: seeded.bigProject.publicKey,
      bigIdsFile: seeded.bigIdsFile,
    };
    const http = await measureHttp(service, ceiling, scratch);
    const webhooks = await measureWebhookRuns(service, scratch);
    return { http, webhooks };
  } finally {
    for (const child of started.reverse()) await stop(child);
    await kafka.stop();
    await mongo.stop();
  }
}
