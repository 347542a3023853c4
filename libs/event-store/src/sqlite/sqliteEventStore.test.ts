import t from 'tap';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventStoreContract } from '../eventStore.contract.js';
import { getSqliteEventStore } from './sqliteEventStore.js';

const dir = t.testdir();
const path = join(dir, 'events.sqlite');

t.test('SQLite event store contract', async (t) => {
  eventStoreContract(t, async () => getSqliteEventStore({ path }));
});

t.test('two processes appending to one file at once: no lost event, positions gap-free', async (t) => {
  const file = join(dir, 'shared.sqlite');
  getSqliteEventStore({ path: file }).close();
  const script = fileURLToPath(new URL('./appendFromProcess.fixture.ts', import.meta.url));
  const run = (name: string) =>
    new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script, file, name, '200'], { stdio: ['ignore', 'inherit', 'inherit'] });
      child.on('error', reject);
      child.on('exit', (code) => resolve(code ?? -1));
    });
  const codes = await Promise.all([run('a'), run('b')]);
  t.same(codes, [0, 0]);
  const store = getSqliteEventStore({ path: file });
  t.teardown(() => store.close());
  const all = await store.readAll({ after: 0, limit: 10_000 });
  t.equal(all.length, 400, 'every append of both processes is there');
  t.same(all.map((e) => e.position), Array.from({ length: 400 }, (_, i) => i + 1), 'positions 1..400 without a gap');
  const shared = await store.readStream('comment-shared');
  t.same(shared.map((e) => e.revision), Array.from({ length: 400 }, (_, i) => i), 'one stream, contiguous revisions');
});

t.test('data survives closing and reopening the file', async (t) => {
  const file = join(dir, 'reopen.sqlite');
  const first = getSqliteEventStore({ path: file });
  const { encodeEvent } = await import('@feedback/events');
  await first.appendToStream('comment-r', [encodeEvent({ type: 'CommentArchived', data: { commentId: 'r' } }, { actor: { type: 'system', id: 't' }, correlationId: 'c', causationId: 'c' })], { expectedRevision: 'no_stream' });
  await first.close();
  const second = getSqliteEventStore({ path: file });
  t.teardown(() => second.close());
  t.equal((await second.readStream('comment-r')).length, 1);
});
