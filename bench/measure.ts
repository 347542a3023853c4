import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '../test/support/ports.js';
import { load, startNode, stop } from './processes.js';
import type { LoadResult } from './load.js';
import { histogramBuckets, histogramQuantile, sampleQuantile, type HttpRow, type Results } from './results.js';

// What is measured of a running service, whichever mode serves it.
export const durationSeconds = Number(process.env.BENCH_DURATION_SECONDS ?? 5);
export const concurrencies = (process.env.BENCH_CONCURRENCY ?? '1,16,64').split(',').map(Number);
const WEBHOOKS_PER_COMMENT = 4;
/** The paced webhook run writes this many comments/s: 4 webhooks each make the target's 2,000 deliveries/s. */
export const PACED_COMMENTS_PER_SECOND = 500;
export const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);

export interface ServiceUnderTest {
  mode: 'embedded' | 'distributed';
  url: string;
  /** Where the projector's /metrics are served. */
  projectorMetricsUrl: string;
  /** Every /metrics that reports a projection or relay lag: measuring starts once all are 0. */
  lagMetricsUrls: string[];
  token: string;
  inboundToken: string;
  domainId: string;
  bigIdsFile: string;
}

export type Ceiling = Map<number, number>;

export async function measureCeiling(): Promise<{ rows: HttpRow[]; ceiling: Ceiling }> {
  const server = startNode('bench/ceiling.ts', {});
  const { port } = JSON.parse(await server.firstLine) as { port: number };
  const url = `http://127.0.0.1:${port}`;
  await load({ kind: 'get', url, path: '/', connections: 16, durationSeconds: 2 });
  const rows: HttpRow[] = [];
  const ceiling: Ceiling = new Map();
  for (const c of concurrencies) {
    const r = await load({ kind: 'get', url, path: '/', connections: c, durationSeconds });
    ceiling.set(c, r.requestsPerSecond);
    rows.push(row('embedded', 'ceiling', 'GET / (bare fastify)', '', c, r, ceiling));
    say(`ceiling c${c}: ${r.requestsPerSecond} req/s, p99 ${r.p99Ms} ms`);
  }
  await stop(server);
  return { rows, ceiling };
}

function row(mode: HttpRow['mode'], path: HttpRow['path'], endpoint: string, consistency: string, concurrency: number, r: LoadResult, ceiling: Ceiling): HttpRow {
  return { mode, path, endpoint, consistency, concurrency, ...r, ofCeiling: r.requestsPerSecond / (ceiling.get(concurrency) ?? Number.NaN) };
}

async function scrape(url: string): Promise<string> {
  return (await fetch(url)).text();
}

/** Waits until the projector and the relays have caught up with the log (a seeded log, a previous run). */
export async function waitIdle(service: ServiceUnderTest) {
  const started = Date.now();
  await waitFor(async () => {
    for (const url of service.lagMetricsUrls) {
      const text = await scrape(url);
      for (const match of text.matchAll(/^feedback_(?:projection|relay_consumer)_lag_events (\S+)$/gm)) if (Number(match[1]) !== 0) return false;
    }
    return true;
  }, 900_000, 'the projector and the relays to catch up');
  say(`${service.mode}: projector and relay caught up (${Math.round((Date.now() - started) / 1000)} s)`);
}

/**
 * The floors at c64 (bench/floors.ts): the service's page-of-50 body served fixed, and one
 * durable insert per request. They bound what the read and write paths can reach here.
 */
export async function measureFloors(service: ServiceUnderTest, ceiling: Ceiling, scratch: string): Promise<HttpRow[]> {
  const pageFile = join(scratch, 'floor-page.json');
  const response = await fetch(`${service.url}/api/external/comments?domainId=${service.domainId}&limit=50`, { headers: { 'x-integration-token': service.token } });
  if (!response.ok) throw new Error(`GET /comments for the floor: ${response.status}`);
  writeFileSync(pageFile, await response.text());
  const server = startNode('bench/floors.ts', { FLOOR_PAGE_FILE: pageFile, FLOOR_DATA_DIR: scratch });
  const { port } = JSON.parse(await server.firstLine) as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const rows: HttpRow[] = [];
  await load({ kind: 'get', url, path: '/page', connections: 16, durationSeconds: 2 });
  const page = await load({ kind: 'get', url, path: '/page', connections: 64, durationSeconds });
  rows.push(row('embedded', 'floor', 'GET fixed page-of-50 body (bare fastify)', '', 64, page, ceiling));
  const insert = await load({ kind: 'createComment', url, token: '', domainId: '', consistency: 'strong', connections: 64, durationSeconds });
  rows.push(row('embedded', 'floor', 'POST one durable SQLite insert (bare fastify)', '', 64, insert, ceiling));
  say(`floors c64: fixed page ${page.requestsPerSecond} req/s, durable insert ${insert.requestsPerSecond} req/s`);
  await stop(server);
  return rows;
}

/** Reads, writes (both consistencies), the projection lag under those writes. */
export async function measureHttp(service: ServiceUnderTest, ceiling: Ceiling, scratch: string): Promise<{ rows: HttpRow[]; lag: Results['projectionLag'][number] }> {
  await waitIdle(service);
  const rows: HttpRow[] = [];
  const { url, mode } = service;
  const list = `/api/external/comments?domainId=${service.domainId}&limit=50`;
  const auth = { 'x-integration-token': service.token };
  await load({ kind: 'get', url, path: list, headers: auth, connections: 16, durationSeconds: 2 });
  for (const c of concurrencies) {
    const r = await load({ kind: 'get', url, path: list, headers: auth, connections: c, durationSeconds });
    rows.push(row(mode, 'read', 'GET /comments (page of 50)', '', c, r, ceiling));
    say(`${mode} GET /comments c${c}: ${r.requestsPerSecond} req/s, p99 ${r.p99Ms} ms, non-2xx ${r.non2xx}`);
  }
  for (const c of concurrencies) {
    const r = await load({ kind: 'getComment', url, token: service.token, commentIdsFile: service.bigIdsFile, connections: c, durationSeconds });
    rows.push(row(mode, 'read', 'GET /comments/{id}', '', c, r, ceiling));
    say(`${mode} GET /comments/{id} c${c}: ${r.requestsPerSecond} req/s, p99 ${r.p99Ms} ms, non-2xx ${r.non2xx}`);
  }

  // Each status-update run gets comments of its own, so that every request changes a status.
  const bigIds = readFileSync(service.bigIdsFile, 'utf8').trim().split('\n');
  let slice = 0;
  const idsForRun = () => {
    const file = join(scratch, `status-ids-${slice}.txt`);
    const size = Math.floor(bigIds.length / (concurrencies.length * 2 + 1));
    writeFileSync(file, bigIds.slice(slice * size, (slice + 1) * size).join('\n'));
    slice++;
    return file;
  };
  await load({ kind: 'createComment', url, token: service.token, domainId: service.domainId, consistency: 'eventual', connections: 16, durationSeconds: 2 });
  const before = histogramBuckets(await scrape(service.projectorMetricsUrl), 'feedback_projection_visible_seconds');
  for (const consistency of ['strong', 'eventual'] as const) {
    const label = consistency === 'strong' ? 'read-your-writes' : 'eventual';
    for (const c of concurrencies) {
      const r = await load({ kind: 'createComment', url, token: service.token, domainId: service.domainId, consistency, connections: c, durationSeconds });
      rows.push(row(mode, 'write', 'POST /comments/create', label, c, r, ceiling));
      say(`${mode} POST /comments/create (${label}) c${c}: ${r.requestsPerSecond} req/s, p99 ${r.p99Ms} ms, non-2xx ${r.non2xx}`);
    }
    for (const c of concurrencies) {
      const r = await load({ kind: 'statusUpdate', url, inboundToken: service.inboundToken, commentIdsFile: idsForRun(), consistency, connections: c, durationSeconds });
      rows.push(row(mode, 'write', 'POST /api/integrations/action status_update', label, c, r, ceiling));
      say(`${mode} inbound status_update (${label}) c${c}: ${r.requestsPerSecond} req/s, p99 ${r.p99Ms} ms, non-2xx ${r.non2xx}`);
    }
  }
  const after = histogramBuckets(await scrape(service.projectorMetricsUrl), 'feedback_projection_visible_seconds');
  const delta = after.map(([bound, count], i): [number, number] => [bound, count - (before[i]?.[1] ?? 0)]);
  const lag = {
    mode,
    events: delta[delta.length - 1]?.[1] ?? 0,
    p50Ms: histogramQuantile(delta, 0.5) * 1000,
    p99Ms: histogramQuantile(delta, 0.99) * 1000,
  };
  say(`${mode} projection lag: p50 ${lag.p50Ms.toFixed(1)} ms, p99 ${lag.p99Ms.toFixed(1)} ms over ${lag.events} events`);
  return { rows, lag };
}

/** The receiver's arrivals once `expected` have come, or once none has for 10 s. */
async function arrivalsOnceSettled(port: number, expected: number): Promise<Array<[string, number]>> {
  let arrivals: Array<[string, number]> = [];
  let seen = -1;
  let lastProgress = Date.now();
  await waitFor(async () => {
    arrivals = (await (await fetch(`http://127.0.0.1:${port}/arrivals`)).json()) as Array<[string, number]>;
    if (arrivals.length >= expected) return true;
    if (arrivals.length !== seen) {
      seen = arrivals.length;
      lastProgress = Date.now();
    }
    return Date.now() - lastProgress > 10_000;
  }, 600_000, 'webhook deliveries');
  return arrivals;
}

/** Both webhook runs: the relay's throughput (unpaced), then its latency at the target's rate. */
export async function measureWebhookRuns(service: ServiceUnderTest, scratch: string): Promise<Results['webhooks']> {
  return [await measureWebhooks(service, scratch), await measureWebhooks(service, scratch, PACED_COMMENTS_PER_SECOND)];
}

/**
 * Comments written at c16 into a project with 4 webhooks, each write's answer time matched with
 * its deliveries' arrival at a receiver. Unpaced, writes go as fast as they can and the relay's
 * throughput is what is measured (its latency then grows with the backlog, for as long as the
 * run lasts); paced at `commentsPerSecond`, the latency at that delivery rate is.
 */
export async function measureWebhooks(service: ServiceUnderTest, scratch: string, commentsPerSecond?: number): Promise<Results['webhooks'][number]> {
  await waitIdle(service);
  const receiver = startNode('bench/receiver.ts', {});
  const { port } = JSON.parse(await receiver.firstLine) as { port: number };
  const api = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${service.url}/api/external${path}`, { method, headers: { 'x-integration-token': service.token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await response.json()) as any;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const project = await api('POST', '/domains', { domain: `https://hooks-${Date.now()}.bench.example.com`, name: 'Webhook bench' });
  for (let i = 0; i < WEBHOOKS_PER_COMMENT; i++) await api('POST', `/domains/${project.publicKey}/webhooks`, { name: `hook ${i}`, event: 'comment', url: `http://127.0.0.1:${port}/hook/${i}` });
  const write = (seconds: number, rate: number | undefined, answersTo?: string) =>
    load({ kind: 'createComment', url: service.url, token: service.token, domainId: project.publicKey, consistency: 'eventual', connections: 16, durationSeconds: seconds, answersTo, rate });
  // A second of paced writes that is not counted: the receiver and the load generator are new
  // processes, and their first requests (JIT, connections) would be measured as the relay's.
  const warmUp = await write(1, PACED_COMMENTS_PER_SECOND);
  await arrivalsOnceSettled(port, (warmUp.requests - warmUp.non2xx) * WEBHOOKS_PER_COMMENT);
  await fetch(`http://127.0.0.1:${port}/arrivals`, { method: 'DELETE' });

  const answersTo = join(scratch, `answers-${service.mode}-${commentsPerSecond ?? 'unpaced'}.json`);
  const written = await write(durationSeconds, commentsPerSecond, answersTo);
  const answers = new Map(JSON.parse(readFileSync(answersTo, 'utf8')) as Array<[string, number]>);
  const expected = answers.size * WEBHOOKS_PER_COMMENT;
  const arrivals = await arrivalsOnceSettled(port, expected);
  await stop(receiver);
  const latencies = arrivals.filter(([id]) => answers.has(id)).map(([id, at]) => Math.max(0, at - answers.get(id)!)).sort((a, b) => a - b);
  const times = arrivals.map(([, at]) => at).sort((a, b) => a - b);
  const firstAnswer = Math.min(...answers.values());
  const spanSeconds = ((times[times.length - 1] ?? firstAnswer) - firstAnswer) / 1000;
  const quantile = (q: number) => sampleQuantile(latencies, q) ?? Number.NaN;
  const result = {
    mode: service.mode,
    writes: commentsPerSecond ? `paced at ${commentsPerSecond} comments/s` : 'unpaced',
    webhooksPerComment: WEBHOOKS_PER_COMMENT,
    comments: written.requests - written.non2xx,
    deliveries: arrivals.length,
    deliveriesPerSecond: arrivals.length / Math.max(spanSeconds, 0.001),
    p50Ms: quantile(0.5),
    p99Ms: quantile(0.99),
  };
  // Writes still in flight when the load stopped were made, but their answers were not recorded:
  // their deliveries count towards throughput, not towards latency.
  say(`${service.mode} webhooks, writes ${result.writes}: ${latencies.length}/${expected} deliveries of answered writes (${result.deliveries} in all), ${Math.round(result.deliveriesPerSecond)}/s, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms`);
  return result;
}

