import t from 'tap';
import { createProjectionProgress } from './projectionProgress.js';
import { getSqliteReadStore } from './sqlite/sqliteReadStore.js';

const settledWithin = async (promise: Promise<boolean>, ms: number) => Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);

t.test('a read-your-writes wait ends when the projector of this process reports the position', async (t) => {
  const progress = createProjectionProgress(getSqliteReadStore({ path: ':memory:' }), 'main');
  const waiting = progress.waitFor(5, 5_000);
  t.equal(await settledWithin(waiting, 50), 'pending');
  progress.advanced(5);
  t.equal(await waiting, true);
  t.equal(await progress.waitFor(3, 5_000), true, 'an older position is already visible');
  t.equal(await progress.waitFor(6, 30), false, 'a position never reached times out');
});

t.test('another process is followed through the checkpoint in the read store', async (t) => {
  const store = getSqliteReadStore({ path: ':memory:' });
  const progress = createProjectionProgress(store, 'main', 5);
  const waiting = progress.waitFor(7, 5_000);
  await store.commit([], { name: 'main', position: 7 });
  t.equal(await waiting, true);
});

t.test('eventual writes answer at once until too many are ahead of the read models', async (t) => {
  const progress = createProjectionProgress(getSqliteReadStore({ path: ':memory:' }), 'main');
  t.equal(await progress.keepWithin(10, 2, 5_000), true);
  t.equal(await progress.keepWithin(12, 2, 5_000), true);
  const third = progress.keepWithin(11, 2, 5_000); // finished after 12: positions may arrive out of order
  t.equal(await settledWithin(third, 50), 'pending', 'a third unprojected write waits');
  progress.advanced(9);
  t.equal(await settledWithin(third, 50), 'pending', 'still three ahead');
  progress.advanced(10);
  t.equal(await third, true, 'back to two ahead');
  progress.advanced(12);
  t.equal(await progress.keepWithin(13, 2, 5_000), true, 'projected writes no longer count');
  t.equal(await progress.keepWithin(14, 0, 30), false, 'with no room, the wait is bounded like read-your-writes');
});
