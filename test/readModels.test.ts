import t, { type Test } from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { createAccount, createProject, executeProjectCommand } from '@feedback/command-api';
import { createComment, executeCommentCommand } from '../services/command-api/src/comments/commentCommands.js';
import { getSqliteEventStore } from '@feedback/event-store';
import { createLogger } from '@feedback/platform';
import { createProjector, MAIN_CHECKPOINT, projections } from '@feedback/projector';
import { getMongoReadStore, getSqliteReadStore, type ReadStore } from '@feedback/read-store';
import { startMongo } from './support/ferretdb.js';
import { freePort, waitFor } from './support/ports.js';
import { exited, startTs } from './support/processes.js';
import { dumpReadModels } from './support/readModels.js';

const dir = mkdtempSync(join(tmpdir(), 'feedback-readmodels-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const eventsFile = join(dir, 'events.sqlite');
const logger = createLogger('silent', 'test');

// A log with every kind of event the projections handle: the same one for every run below.
const eventStore = getSqliteEventStore({ path: eventsFile });
const context = { actor: { type: 'operator' as const, id: 'seed' }, correlationId: ulid() };
const { accountId } = await createAccount({ eventStore }, { ownerEmail: 'seed@example.com', ownerName: 'Seed' }, context);
const { project } = await createProject({ eventStore }, accountId, { domain: 'https://seed.example.com' }, context);
const projectRef = { ...project, id: project.projectId, accountId, settings: {} };
for (let i = 0; i < 300; i++) {
  const { commentId } = await createComment({ eventStore }, projectRef, { text: `c${i}`, url: `https://seed.example.com/p${i % 7}`, priority: 'normal', author: null, metadata: { consoleErrors: [] }, attachments: [] }, context);
  await executeCommentCommand({ eventStore }, commentId, { type: 'ReplyToComment', replyId: ulid(), text: 'r', author: { name: 'R' }, attachments: [], scope: { accountId } }, context);
  await executeCommentCommand({ eventStore }, commentId, { type: 'UpdateComment', status: 'done', priority: i % 2 ? 'high' : 'low', scope: { accountId } }, context);
  if (i % 10 === 0) await executeProjectCommand({ eventStore }, { type: 'AddClient', projectId: project.projectId, email: `c${i}@x.test`, name: `C${i}`, autoApprove: i % 20 === 0 }, context);
}
const head = await eventStore.headPosition();

async function cleanRebuild(readStore: ReadStore) {
  const projector = createProjector({ eventStore, readStore, projections, logger });
  await projector.catchUp();
  return dumpReadModels(readStore);
}

async function addComment(i: number) {
  const { commentId } = await createComment({ eventStore }, projectRef, { text: `c${i}`, url: `https://seed.example.com/p${i % 7}`, priority: 'normal', author: null, metadata: { consoleErrors: [] }, attachments: [] }, context);
  await executeCommentCommand({ eventStore }, commentId, { type: 'ReplyToComment', replyId: ulid(), text: 'r', author: { name: 'R' }, attachments: [], scope: { accountId } }, context);
}

async function killAndResume(t: Test, backend: Record<string, string>, openReadStore: () => Promise<ReadStore>, openFresh: () => Promise<ReadStore>) {
  const env = { DATA_DIR: dir, LOG_LEVEL: 'silent', PROJECTOR_BATCH_SIZE: '7', HOST: '127.0.0.1', ...backend };
  const readStore = await openReadStore();
  t.teardown(() => readStore.close());
  // The log keeps growing while the projector runs, so the kill always lands mid-stream; by a
  // bounded amount, so that catching up stays a matter of seconds on FerretDB too.
  let writing = true;
  let added = 0;
  const writer = (async () => {
    while (writing && added < 150) {
      await addComment(10_000 + added++);
      await new Promise((resolve) => setImmediate(resolve)); // let the test's timers run
    }
  })();
  const first = startTs('services/projector/src/main.ts', { ...env, PORT: String(await freePort()) });
  await waitFor(async () => ((await readStore.getCheckpoint(MAIN_CHECKPOINT))?.position ?? 0) > head / 2, 60_000, 'the projector to start applying');
  first.kill('SIGKILL');
  await exited(first);
  const atKill = (await readStore.getCheckpoint(MAIN_CHECKPOINT))!.position;
  const headAtKill = await eventStore.headPosition();
  t.ok(atKill < headAtKill, `killed mid-stream (checkpoint ${atKill} of ${headAtKill})`);
  writing = false;
  await writer;
  const finalHead = await eventStore.headPosition();

  const port = await freePort();
  const second = startTs('services/projector/src/main.ts', { ...env, PROJECTOR_BATCH_SIZE: '500', PORT: String(port) });
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, 60_000, 'the restarted projector');
  await waitFor(async () => (await readStore.getCheckpoint(MAIN_CHECKPOINT))?.position === finalHead, 60_000, 'the restarted projector to catch up');
  second.kill('SIGTERM');
  t.equal(await exited(second), 0, 'stops cleanly on SIGTERM');

  const resumed = await dumpReadModels(readStore);
  const fresh = await openFresh();
  t.teardown(() => fresh.close());
  const rebuilt = await cleanRebuild(fresh);
  t.ok(resumed.comments!.length >= 300, `${resumed.comments!.length} comments`);
  t.equal(resumed.comments!.filter((c) => (c.replies as unknown[]).length === 1).length, resumed.comments!.length, 'no reply applied twice');
  t.same(resumed, rebuilt, 'identical to a clean rebuild');
}

t.test('SQLite read models: projector killed with SIGKILL mid-stream resumes without double effects', async (t) => {
  await killAndResume(
    t,
    { READ_STORE: 'sqlite' },
    async () => getSqliteReadStore({ path: join(dir, 'read-models.sqlite') }),
    async () => getSqliteReadStore({ path: join(dir, 'rebuilt.sqlite') }),
  );
});

t.test('MongoDB read models (FerretDB): the same, without transactions', async (t) => {
  const mongo = await startMongo();
  if ('skip' in mongo) {
    t.comment(`skipping: ${mongo.skip}`);
    return;
  }
  t.teardown(() => mongo.stop());
  await killAndResume(
    t,
    { READ_STORE: 'mongodb', MONGODB_URL: mongo.url, MONGODB_DATABASE: 'killtest' },
    async () => getMongoReadStore({ url: mongo.url, database: 'killtest' }),
    async () => getMongoReadStore({ url: mongo.url, database: 'rebuilt' }),
  );
});

t.test('read-your-writes through a separate query-api process; two instances answer alike', async (t) => {
  const shared = mkdtempSync(join(tmpdir(), 'feedback-split-'));
  t.teardown(() => rmSync(shared, { recursive: true, force: true }));
  const env = { DATA_DIR: shared, LOG_LEVEL: 'silent', HOST: '127.0.0.1' };
  const ports = { command: await freePort(), projector: await freePort(), q1: await freePort(), q2: await freePort() };
  const children = [
    startTs('services/command-api/src/main.ts', { ...env, PORT: String(ports.command) }),
    startTs('services/projector/src/main.ts', { ...env, PORT: String(ports.projector) }),
    startTs('services/query-api/src/main.ts', { ...env, PORT: String(ports.q1) }),
    startTs('services/query-api/src/main.ts', { ...env, PORT: String(ports.q2) }),
  ];
  t.teardown(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map(exited));
  });
  for (const port of Object.values(ports)) await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, 60_000, `service on ${port}`);

  const seedStore = getSqliteEventStore({ path: join(shared, 'events.sqlite') });
  const { accountId: acct, token } = await createAccount({ eventStore: seedStore }, { ownerEmail: 'split@example.com', ownerName: 'Split' }, context);
  await createProject({ eventStore: seedStore }, acct, { domain: 'https://split.example.com' }, context);
  await seedStore.close();
  const headers = { 'x-integration-token': token, 'content-type': 'application/json' };
  const query = (port: number, path: string) => fetch(`http://127.0.0.1:${port}/api/external${path}`, { headers }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  await waitFor(async () => (await query(ports.q1, '/domains')).status === 200, 10_000, 'the token to be projected');

  for (let i = 0; i < 10; i++) {
    const created = await fetch(`http://127.0.0.1:${ports.command}/api/external/comments/create`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ domainId: 'split.example.com', text: `ryw ${i}`, url: 'https://split.example.com/' }),
    }).then((r) => r.json() as Promise<any>);
    const readBack = await query(i % 2 ? ports.q1 : ports.q2, `/comments/${created.id}`);
    t.equal(readBack.status, 200, `comment ${i} readable at once from query-api ${i % 2 ? 1 : 2}`);
  }
  for (const path of ['/comments?domainId=split.example.com', '/members', '/domains', '/account']) {
    const [a, b] = await Promise.all([query(ports.q1, path), query(ports.q2, path)]);
    t.same(a, b, `both instances answer ${path} identically`);
  }
  t.equal((await query(ports.q1, '/comments?domainId=split.example.com')).body.comments.length, 10);
});

t.teardown(() => eventStore.close());
