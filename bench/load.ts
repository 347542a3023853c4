import autocannon, { type Request } from 'autocannon';
import { Agent, request as httpRequest } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { commentStatuses } from '@feedback/events';
import { sampleQuantile } from './results.js';

/**
 * The load generator, always in a process of its own so that it never shares a CPU's event
 * loop with the server it measures. Takes one job as JSON in argv[2]; prints one JSON result.
 */
export type LoadJob = {
  url: string;
  connections: number;
  durationSeconds: number;
  /** Write the time each answer arrived, by the id it names, to this file (webhook latency). */
  answersTo?: string;
  /** Requests per second, evenly spaced; as fast as the connections allow when absent. */
  rate?: number;
} & (
  | { kind: 'get'; path: string; headers?: Record<string, string> }
  | { kind: 'getComment'; token: string; commentIdsFile: string }
  | { kind: 'createComment'; token: string; domainId: string; consistency: 'strong' | 'eventual' }
  | { kind: 'statusUpdate'; inboundToken: string; commentIdsFile: string; consistency: 'strong' | 'eventual' }
);

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

// The wall clock, read the same way by the receiver (another process): performance.timeOrigin
// is each process's own reading at its start, and nothing makes two of them agree.
const now = () => Date.now();

function requestsOf(job: LoadJob, answers: Array<[string, number]>): Request[] {
  const json = { 'content-type': 'application/json' };
  const consistency = (c: 'strong' | 'eventual') => (c === 'eventual' ? { 'x-consistency': 'eventual' } : {});
  switch (job.kind) {
    case 'get':
      return [{ method: 'GET', path: job.path, headers: job.headers }];
    case 'getComment': {
      const ids = readFileSync(job.commentIdsFile, 'utf8').trim().split('\n');
      return [{
        method: 'GET',
        headers: { 'x-integration-token': job.token },
        setupRequest: (request) => ({ ...request, path: `/api/external/comments/${ids[Math.floor(Math.random() * ids.length)]}` }),
      }];
    }
    case 'createComment': {
      let n = 0;
      return [{
        method: 'POST',
        path: '/api/external/comments/create',
        headers: { ...json, 'x-integration-token': job.token, ...consistency(job.consistency) },
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ domainId: job.domainId, text: `bench comment ${++n} @reviewer@example.com`, url: 'https://bench.example.com/pricing' }) }),
        onResponse: (status, body) => {
          if (job.answersTo && status === 201) answers.push([(JSON.parse(body) as { id: string }).id, now()]);
        },
      }];
    }
    case 'statusUpdate': {
      // Every request changes a status (each visit to a comment moves it to the next one), so
      // each one appends an event: the cost measured is a real write, never a no-op.
      const ids = readFileSync(job.commentIdsFile, 'utf8').trim().split('\n');
      let n = 0;
      return [{
        method: 'POST',
        path: '/api/integrations/action',
        headers: { ...json, ...consistency(job.consistency) },
        setupRequest: (request) => {
          const i = n++;
          const status = commentStatuses[(Math.floor(i / ids.length) + 1) % commentStatuses.length];
          return { ...request, body: JSON.stringify({ token: job.inboundToken, action: 'status_update', payload: { commentId: ids[i % ids.length], status } }) };
        },
      }];
    }
  }
}

/** Autocannon at full speed: every connection sends its next request as soon as it has an answer. */
async function flatOut(job: LoadJob, requests: Request[]): Promise<LoadResult> {
  const result = await autocannon({ url: job.url, connections: job.connections, duration: job.durationSeconds, requests });
  return {
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * Requests evenly spaced at `rate` per second, at most `connections` in flight. Not autocannon's
 * overallRate: that sends each second's quota in a burst at the start of the second, and a
 * burst is not the steady rate a latency figure is meant to be measured at.
 */
async function paced(job: LoadJob & { rate: number }, requests: Request[]): Promise<LoadResult> {
  const template = requests[0]!;
  // autocannon's Request type allows its hooks to be strings (names, for its CLI); ours are functions.
  const setup = template.setupRequest as ((request: Request, context: object) => Request) | undefined;
  const onResponse = template.onResponse as ((status: number, body: string, context: object) => void) | undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
  const latencies: number[] = [];
  let sent = 0;
  let inFlight = 0;
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const send = () => {
    const request = setup ? setup({ ...template }, {}) : template;
    const at = performance.now();
    inFlight++;
    const req = httpRequest(`${job.url}${request.path}`, { method: request.method, headers: request.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        inFlight--;
        latencies.push(performance.now() - at);
        if ((res.statusCode ?? 0) >= 300) non2xx++;
        onResponse?.(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), {});
      });
    });
    req.on('error', () => {
      inFlight--;
      errors++;
    });
    req.end(request.body as string | undefined);
  };
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = performance.now() - started;
      if (elapsed >= job.durationSeconds * 1000) {
        clearInterval(timer);
        return resolve();
      }
      const due = Math.floor((elapsed / 1000) * job.rate);
      while (sent < due && inFlight < job.connections) {
        sent++;
        send();
      }
    }, 1);
  });
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const quantile = (q: number) => Math.round(sampleQuantile(latencies, q) ?? 0);
  return { requestsPerSecond: Math.round(latencies.length / job.durationSeconds), p50Ms: quantile(0.5), p99Ms: quantile(0.99), requests: latencies.length, non2xx, errors };
}

async function main() {
  const job = JSON.parse(process.argv[2]!) as LoadJob;
  const answers: Array<[string, number]> = [];
  const requests = requestsOf(job, answers);
  const out = job.rate ? await paced({ ...job, rate: job.rate }, requests) : await flatOut(job, requests);
  if (job.answersTo) writeFileSync(job.answersTo, JSON.stringify(answers));
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

await main();
