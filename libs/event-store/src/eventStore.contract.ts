import type { Test } from 'tap';
import { encodeEvent, type EventMetadata } from '@feedback/events';
import { WrongExpectedRevisionError, type EventStore } from './eventStore.js';

const metadata: EventMetadata = {
  actor: { type: 'system', id: 'contract-suite' },
  correlationId: 'corr-1',
  causationId: 'cause-1',
};
const archived = (commentId: string) => encodeEvent({ type: 'CommentArchived', data: { commentId } }, metadata);

/** One suite, every adapter: the behaviour the rest of the system relies on. */
export function eventStoreContract(t: Test, makeStore: () => Promise<EventStore>) {
  let n = 0;
  const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${n++}`;

  t.test('appends to a new stream and reads it back in order', async (t) => {
    const store = await makeStore();
    t.teardown(() => store.close());
    const stream = unique('comment');
    const first = await store.appendToStream(stream, [archived('a'), archived('b')], { expectedRevision: 'no_stream' });
    t.equal(first.nextExpectedRevision, 1);
    t.equal(first.createdNewStream, true);
    const second = await store.appendToStream(stream, [archived('c')], { expectedRevision: 1 });
    t.equal(second.nextExpectedRevision, 2);
    t.equal(second.createdNewStream, false);
    t.ok(second.lastPosition > first.lastPosition, 'positions grow');
    const events = await store.readStream(stream);
    t.same(events.map((e) => [e.revision, e.data]), [[0, { commentId: 'a' }], [1, { commentId: 'b' }], [2, { commentId: 'c' }]]);
    t.equal(events[0]!.metadata.correlationId, 'corr-1');
    t.equal(events[0]!.metadata.actor.id, 'contract-suite');
    t.match(events[0]!.id, /^[0-9A-HJKMNP-TV-Z]{26}$/, 'event id is a ULID');
    t.equal(events[0]!.schemaVersion, 1);
    t.ok(Date.parse(events[0]!.occurredAt) > 0);
  });

  t.test('readStream from a revision returns the tail only', async (t) => {
    const store = await makeStore();
    t.teardown(() => store.close());
    const stream = unique('comment');
    await store.appendToStream(stream, [archived('a'), archived('b'), archived('c')], { expectedRevision: 'no_stream' });
    t.same((await store.readStream(stream, { fromRevision: 1 })).map((e) => [e.revision, e.data]), [[1, { commentId: 'b' }], [2, { commentId: 'c' }]]);
    t.same(await store.readStream(stream, { fromRevision: 3 }), [], 'nothing after the last event');
    t.same(await store.readStream(unique('nothing'), { fromRevision: 2 }), []);
  });

  t.test('appends asked for at once all land; one that conflicts fails alone', async (t) => {
    const store = await makeStore();
    t.teardown(() => store.close());
    const taken = unique('comment');
    await store.appendToStream(taken, [archived('seed')], { expectedRevision: 'no_stream' });
    const streamsAsked = Array.from({ length: 20 }, () => unique('comment'));
    const results = await Promise.allSettled([
      ...streamsAsked.map((stream, i) => store.appendToStream(stream, [archived(`n${i}`)], { expectedRevision: 'no_stream' })),
      store.appendToStream(taken, [archived('late')], { expectedRevision: 'no_stream' }),
    ]);
    t.equal(results.filter((r) => r.status === 'fulfilled').length, 20);
    t.type((results[20] as PromiseRejectedResult).reason, WrongExpectedRevisionError);
    const positions = results.slice(0, 20).map((r) => (r as PromiseFulfilledResult<{ lastPosition: number }>).value.lastPosition);
    t.equal(new Set(positions).size, 20, 'each append has its own position');
    for (const stream of streamsAsked) t.equal((await store.readStream(stream)).length, 1);
    t.equal((await store.readStream(taken)).length, 1, 'the conflicting append wrote nothing');
  });

  t.test('a missing stream reads as empty', async (t) => {
    const store = await makeStore();
    t.teardown(() => store.close());
    t.same(await store.readStream(unique('nothing')), []);
  });

  t.test('rejects a wrong expected revision with a typed error and writes nothing', async (t) => {
    const store = await makeStore();
    t.teardown(() => store.close());
    const stream = unique('comment');
    await store.appendToStream(stream, [archived('a')], { expectedRevision: 'no_stream' });
    await t.rejects(store.appendToStream(stream, [archived('b')], { expectedRevision: 'no_stream' }), WrongExpectedRevisionError);
    await t.rejects(store.appendToStream(stream, [archived('b')], { expectedRevision: 5 }), WrongExpectedRevisionError);
    await t.rejects(store.appendToStream(unique('comment'), [archived('b')], { expectedRevision: 0 }), WrongExpectedRevisionError);
    t.equal((await store.readStream(stream)).length, 1);
  });

  t.test('50 concurrent appends at one expected revision: exactly one wins', async (t) => {
    const store = await makeStore();
    t.teardown(() => store.close());
    const stream = unique('comment');
    await store.appendToStream(stream, [archived('seed')], { expectedRevision: 'no_stream' });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => store.appendToStream(stream, [archived(`c${i}`)], { expectedRevision: 0 })),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const conflicts = results.filter((r) => r.status === 'rejected' && r.reason instanceof WrongExpectedRevisionError);
    t.equal(won.length, 1, 'one success');
    t.equal(conflicts.length, 49, '49 conflicts');
    t.equal((await store.readStream(stream)).length, 2);
  });

  t.test('a subscriber from any position sees every later event once, in order, during catch-up too', async (t) => {
    const store = await makeStore();
    t.teardown(() => store.close());
    const stream = unique('comment');
    await store.appendToStream(stream, [archived('0'), archived('1'), archived('2')], { expectedRevision: 'no_stream' });
    const before = await store.readStream(stream);
    const startAfter = before[0]!.position; // start mid-way: after the first of ours
    const subscription = store.subscribeToAll({ after: startAfter });
    const seen: string[] = [];
    const positions: number[] = [];
    const writer = (async () => {
      for (let i = 3; i < 40; i++) {
        await store.appendToStream(stream, [archived(String(i))], { expectedRevision: i - 1 });
      }
    })();
    for await (const event of subscription) {
      positions.push(event.position);
      if (event.stream === stream && event.type === 'CommentArchived') seen.push(event.data.commentId);
      if (seen.length === 39) break;
    }
    await subscription.close();
    await writer;
    t.same(seen, Array.from({ length: 39 }, (_, i) => String(i + 1)), 'every event after the start, once, in order');
    t.ok(positions.every((p, i) => i === 0 || p > positions[i - 1]!), 'positions strictly increase');
    t.ok(positions[0]! > startAfter);
  });

  t.test('readAll pages through the log in position order', async (t) => {
    const store = await makeStore();
    t.teardown(() => store.close());
    const stream = unique('comment');
    await store.appendToStream(stream, [archived('x'), archived('y'), archived('z')], { expectedRevision: 'no_stream' });
    const mine = await store.readStream(stream);
    const page = await store.readAll({ after: mine[0]!.position - 1, limit: 2 });
    t.equal(page.length, 2);
    t.equal(page[0]!.id, mine[0]!.id);
    t.ok(page[1]!.position > page[0]!.position);
    t.ok((await store.headPosition()) >= mine[2]!.position);
  });
}
