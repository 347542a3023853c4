import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distributedEnv } from './support/distributedEnv.js';
import { startMongo } from './support/ferretdb.js';
import { startKafka } from './support/kafka.js';
import { freePort, waitFor } from './support/ports.js';
import { exited, runTs, startTs } from './support/processes.js';
import { startReceiver } from './support/receiver.js';

// The distributed mode on this machine: command-api, projector, two query-api and two
// webhook-relay processes and the gateway, on FerretDB (read models, relay state) and a real
// Kafka broker, sharing the SQLite event store file (production uses EventStoreDB there).
const mongo = await startMongo();
const kafka = await startKafka();
if ('skip' in mongo || 'skip' in kafka) {
  t.comment(`distributed end-to-end test skipped: ${'skip' in mongo ? mongo.skip : ''} ${'skip' in kafka ? kafka.skip : ''}`);
  t.pass('skipped with the reason printed');
} else {
  t.teardown(() => mongo.stop());
  t.teardown(() => kafka.stop());
  const dir = mkdtempSync(join(tmpdir(), 'feedback-distributed-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { ...distributedEnv({ dataDir: dir, mongoUrl: mongo.url, brokers: kafka.brokers, name: `e2e${process.pid}` }), LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '100000' };
  const services = new Map<string, { port: number; child: ReturnType<typeof startTs> }>();
  async function start(name: string, entry: string, extra: Record<string, string> = {}) {
    const port = services.get(name)?.port ?? (await freePort());
    const child = startTs(entry, { ...env, ...extra, PORT: String(port) });
    services.set(name, { port, child });
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, 60_000, `${name} to be healthy`);
    return child;
  }
  t.teardown(async () => {
    for (const { child } of services.values()) if (child.exitCode === null) child.kill('SIGKILL');
  });
  const url = (name: string) => `http://127.0.0.1:${services.get(name)!.port}`;

  t.test('writes and reads through one gateway; kills lose no event and fail no read', async (t) => {
    await start('command-api', 'services/command-api/src/main.ts');
    await start('projector', 'services/projector/src/main.ts');
    await start('query-1', 'services/query-api/src/main.ts');
    await start('query-2', 'services/query-api/src/main.ts');
    await start('relay-1', 'services/webhook-relay/src/main.ts');
    await start('relay-2', 'services/webhook-relay/src/main.ts');
    await start('gateway', 'apps/gateway/src/main.ts', { GATEWAY_COMMAND_URL: url('command-api'), GATEWAY_QUERY_URLS: `${url('query-1')},${url('query-2')}` });

    const account = await runTs('apps/cli/src/main.ts', ['account', 'create', '--owner-email', 'e2e@example.com', '--owner-name', 'E2E'], { ...env, LOG_LEVEL: 'silent' });
    t.equal(account.code, 0, account.stderr);
    const { token } = JSON.parse(account.stdout) as { token: string };
    const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, base = url('gateway')) => {
      const response = await fetch(`${base}/api/external${path}`, { method, headers: { 'x-integration-token': token, ...(body ? { 'content-type': 'application/json' } : {}), ...headers }, body: body ? JSON.stringify(body) : undefined });
      return { status: response.status, body: (await response.json()) as any };
    };
    const project = await api('POST', '/domains', { domain: 'https://e2e.example.com', name: 'E2E' });
    t.equal(project.status, 201);
    const domainId = project.body.publicKey;
    const receiver = await startReceiver(t);
    for (const event of ['comment', 'reply', 'status_update']) t.equal((await api('POST', `/domains/${domainId}/webhooks`, { name: event, event, url: `${receiver.url}/${event}` })).status, 201);

    let failedReads = 0;
    const comments: string[] = [];
    async function oneComment(n: number, checkBothInstances: boolean) {
      const created = await api('POST', '/comments/create', { domainId, text: `c${n}`, url: 'https://e2e.example.com/p' });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
      const id = created.body.id as string;
      comments.push(id);
      if (checkBothInstances) {
        for (const q of ['query-1', 'query-2']) if ((await api('GET', `/comments/${id}`, undefined, {}, url(q))).status !== 200) failedReads++;
      } else if ((await api('GET', `/comments/${id}`)).status !== 200) failedReads++;
      await api('POST', '/comments/reply', { commentId: id, text: 'seen', name: 'Ops' });
      await api('POST', '/comments/update', { commentId: id, status: 'in_progress', priority: 'high' });
      await api('POST', '/comments/update', { commentId: id, status: 'done' });
    }

    // Phase 1: read-your-writes through either instance.
    for (let n = 0; n < 20; n++) await oneComment(n, true);
    t.equal(failedReads, 0, 'every write was readable at once through both query-api instances');

    // Phase 2: one relay and one query-api killed mid-load; reads go through the gateway.
    const load = (async () => {
      for (let n = 20; n < 60; n++) await oneComment(n, false);
    })();
    await waitFor(async () => comments.length >= 30, 60_000, 'load to be under way');
    services.get('relay-1')!.child.kill('SIGKILL');
    services.get('query-1')!.child.kill('SIGKILL');
    await load;
    t.equal(failedReads, 0, 'no read failed: the gateway retried on the other instance');

    // Phase 3: the projector killed and restarted under writes: no double effects.
    const more = (async () => {
      for (let n = 60; n < 70; n++) await oneComment(n, false).catch(() => undefined);
    })();
    services.get('projector')!.child.kill('SIGKILL');
    await exited(services.get('projector')!.child);
    await start('projector', 'services/projector/src/main.ts');
    await more;

    const correlated = await api('POST', '/comments/create', { domainId, text: 'traced', url: 'https://e2e.example.com/traced' }, { 'x-correlation-id': 'e2e-trace-1' });
    t.equal(correlated.status, 201);
    const total = comments.length + 1;

    await waitFor(async () => (await api('GET', `/comments?domainId=${domainId}&limit=200`)).body.comments?.length === total, 60_000, 'every comment to be listed');
    const listed = (await api('GET', `/comments?domainId=${domainId}&limit=200`)).body.comments as any[];
    t.equal(new Set(listed.map((c) => c.id)).size, total, 'each comment once');
    t.ok(listed.filter((c) => c.text !== 'traced').every((c) => c.replies.length === 1 && c.status === 'done' && c.priority === 'high'), 'each reply applied once, each update applied');

    // Each event to each webhook: a comment, a reply and two status updates per comment.
    const expected = comments.length * 4 + 1;
    await waitFor(async () => new Set(receiver.received.map((r) => r.headers['webhook-id'])).size >= expected, 120_000, 'every delivery');
    t.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, expected, 'every event delivered to its webhook');
    await waitFor(async () => services.get('relay-2')!.child.output().includes('"correlationId":"e2e-trace-1"'), 30_000, 'the trace in the relay log');
    t.pass('the correlation id of the request reaches the log line of its delivery');

    const metrics = await fetch(`${url('command-api')}/metrics`).then((r) => r.text());
    t.match(metrics, /feedback_events_appended_total\{type="CommentCreated"\} \d+/);
    t.match(metrics, /feedback_http_request_duration_seconds_count\{method="POST",route="\/api\/external\/comments\/create",status="201"\}/);
    t.match(await fetch(`${url('projector')}/metrics`).then((r) => r.text()), /feedback_projection_lag_events \d+/);
    t.match(await fetch(`${url('relay-2')}/metrics`).then((r) => r.text()), /feedback_webhook_deliveries_total\{outcome="delivered"\} \d+/);

    for (const name of ['command-api', 'projector', 'query-2', 'relay-2', 'gateway']) {
      const { child } = services.get(name)!;
      child.kill('SIGTERM');
      t.equal(await exited(child), 0, `${name} stops cleanly on SIGTERM`);
    }
  });
}
