import autocannon, { type Request } from 'autocannon';
import { readFileSync, writeFileSync } from 'node:fs';
import { commentStatuses } from '@feedback/events';

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

const now = () => performance.timeOrigin + performance.now();

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

async function main() {
  const job = JSON.parse(process.argv[2]!) as LoadJob;
  const answers: Array<[string, number]> = [];
  const result = await autocannon({ url: job.url, connections: job.connections, duration: job.durationSeconds, requests: requestsOf(job, answers) });
  if (job.answersTo) writeFileSync(job.answersTo, JSON.stringify(answers));
  const out: LoadResult = {
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

await main();
