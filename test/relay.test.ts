import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getSqliteEventStore } from '@feedback/event-store';
import { getSqliteReadStore } from '@feedback/read-store';
import { DELIVERIES, type Delivery } from '@feedback/webhook-relay';
import { freePort, waitFor } from './support/ports.js';
import { exited, startTs } from './support/processes.js';
import { startReceiver } from './support/receiver.js';
import { commentWithUpdates, distinctDeliveries, outOfOrder, seedProject } from './support/relayTraffic.js';

// The relay as its own process on the embedded bus: killed without warning, it loses nothing.
const dir = mkdtempSync(join(tmpdir(), 'feedback-relay-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const eventStore = getSqliteEventStore({ path: join(dir, 'events.sqlite') });
t.teardown(() => eventStore.close());

async function startRelay(env: Record<string, string> = {}) {
  const port = await freePort();
  const child = startTs('services/webhook-relay/src/main.ts', { DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', BUS: 'embedded', ...env });
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, 30_000, 'the relay to be healthy');
  return child;
}

t.test('SIGKILL mid-stream, restart: every event is delivered, each comment in order', async (t) => {
  const receiver = await startReceiver(t);
  const seeded = await seedProject(eventStore, receiver.url);
  let relay = await startRelay();
  t.teardown(() => void relay.kill('SIGKILL'));
  const comments = 120;
  const writing = (async () => {
    for (let n = 0; n < comments; n++) await commentWithUpdates(eventStore, seeded, n);
  })();
  await receiver.waitFor(60, () => true, 60_000);
  relay.kill('SIGKILL');
  await exited(relay);
  const atKill = distinctDeliveries(receiver.received);
  await writing;
  relay = await startRelay();
  const expected = comments * 4; // a comment, then three status updates
  await waitFor(async () => distinctDeliveries(receiver.received) >= expected, 120_000, 'every delivery');
  t.ok(atKill < expected, `killed mid-stream (${atKill} of ${expected} delivered)`);
  t.equal(distinctDeliveries(receiver.received), expected, 'every event delivered');
  t.same(outOfOrder(receiver.received), [], 'each comment’s updates in the order they happened');
  relay.kill('SIGTERM');
  t.equal(await exited(relay), 0, 'a SIGTERM drains and exits cleanly');
});

t.test('a relay restarted during a retry wait still delivers on time', async (t) => {
  const receiver = await startReceiver(t, (_r, i) => ({ status: i === 0 ? 503 : 200 }));
  const seeded = await seedProject(eventStore, receiver.url, ['comment']);
  const env = { WEBHOOK_RETRY_SCHEDULE: '3s' };
  let relay = await startRelay(env);
  t.teardown(() => void relay.kill('SIGKILL'));
  await commentWithUpdates(eventStore, seeded, 0);
  const [first] = await receiver.waitFor(1);
  // Killed once the failed attempt is on record (before that, resending at once is right).
  const relayStore = getSqliteReadStore({ path: join(dir, 'relay.sqlite'), prefix: 'relay' });
  t.teardown(() => relayStore.close());
  await waitFor(async () => (await relayStore.get<Delivery>(DELIVERIES, String(first!.headers['webhook-id'])))?.attempts.length === 1, 10_000, 'the attempt to be recorded');
  relay.kill('SIGKILL');
  await exited(relay);
  relay = await startRelay(env);
  const [, second] = await receiver.waitFor(2, () => true, 20_000);
  const waited = second!.at - first!.at;
  t.ok(waited >= 2_600 && waited < 6_000, `retried after ${waited} ms (3 s ± 10 %, plus a restart)`);
  t.equal(second!.headers['webhook-id'], first!.headers['webhook-id']);
});
