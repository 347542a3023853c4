import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { encodeEvent, type FeedbackEvent } from '@feedback/events';
import { getSqliteEventStore, type EventStore } from '@feedback/event-store';
import { getSqliteReadStore, type ReadStore } from '@feedback/read-store';
import type { BusBatch, EventBus } from './eventBus.js';

export type MakeBus = (eventStore: EventStore, store: ReadStore) => EventBus;

const commentCreated = (projectId: string, commentId: string, n: number): FeedbackEvent => ({
  type: 'CommentCreated',
  data: { commentId, commentNumber: n, accountId: 'acc', projectId, domain: 'https://x.test', pageUrl: 'https://x.test/p', slug: '/p', title: null, text: 't', status: 'todo', priority: 'normal', author: null, metadata: { consoleErrors: [] }, attachments: [] },
});

/** One suite, every bus adapter: what the relay relies on. */
export function eventBusContract(t: Test, makeBus: MakeBus) {
  async function fixture(t: Test) {
    const dir = mkdtempSync(join(tmpdir(), 'bus-contract-'));
    const eventStore = getSqliteEventStore({ path: join(dir, 'events.sqlite') });
    const store = getSqliteReadStore({ path: join(dir, 'relay.sqlite'), prefix: 'relay' });
    t.teardown(async () => {
      await store.close();
      await eventStore.close();
      rmSync(dir, { recursive: true, force: true });
    });
    let cause = 0;
    const append = (stream: string, events: FeedbackEvent[]) => {
      const metadata = { actor: { type: 'system' as const, id: 'contract' }, correlationId: 'c', causationId: `cause-${cause++}` };
      return eventStore.appendToStream(stream, events.map((e) => encodeEvent(e, metadata)), { expectedRevision: 'any' });
    };
    const received: BusBatch[] = [];
    const consumer = () => ({ handle: async (batch: BusBatch) => void received.push(batch), assigned: () => {} });
    return { eventStore, store, append, received, consumer };
  }

  async function until(check: () => boolean, what: string, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  t.test('every commit arrives whole, and each comment in log order', async (t) => {
    const f = await fixture(t);
    const bus = makeBus(f.eventStore, f.store);
    await bus.start(f.consumer());
    t.teardown(() => bus.stop());
    const expected: string[] = [];
    for (let c = 0; c < 20; c++) {
      const commentId = `c${c}`;
      await f.append(`comment-${commentId}`, [commentCreated(`p${c % 3}`, commentId, c + 1)]);
      expected.push(`${commentId}:created`);
    }
    for (let round = 0; round < 3; round++)
      for (let c = 0; c < 20; c++) {
        await f.append(`comment-c${c}`, [
          { type: 'CommentStatusChanged', data: { commentId: `c${c}`, previousStatus: 'todo', status: 'done' } },
          { type: 'CommentPriorityChanged', data: { commentId: `c${c}`, previousPriority: 'normal', priority: 'high' } },
        ]);
        expected.push(`c${c}:changed`);
      }
    const seen = () => f.received.flatMap((b) => b.commits).map((c) => `${(c.events[0]!.data as { commentId: string }).commentId}:${c.events.length === 2 ? 'changed' : 'created'}`);
    await until(() => new Set(seen()).size >= 21 && seen().length >= expected.length, 'every commit');
    t.same(new Set(seen()), new Set(expected), 'nothing lost');
    for (const batch of f.received)
      for (const commit of batch.commits) {
        t.ok(commit.events.every((e) => e.stream === commit.events[0]!.stream && e.metadata.causationId === commit.events[0]!.metadata.causationId), 'a commit holds one append');
        if (commit.events[0]!.type === 'CommentStatusChanged') t.equal(commit.events.length, 2, 'status and priority of one command stay together');
      }
    const positionsByComment = new Map<string, number[]>();
    for (const commit of f.received.flatMap((b) => b.commits)) {
      const id = commit.events[0]!.stream;
      positionsByComment.set(id, [...(positionsByComment.get(id) ?? []), commit.events[0]!.position]);
    }
    for (const [stream, positions] of positionsByComment) t.same(positions, [...positions].sort((a, b) => a - b), `${stream} in order`);
  });

  t.test('a bus restarted on the same stores goes on where it stopped: nothing is lost', async (t) => {
    const f = await fixture(t);
    const first = makeBus(f.eventStore, f.store);
    await first.start(f.consumer());
    for (let c = 0; c < 10; c++) await f.append(`comment-a${c}`, [commentCreated('p', `a${c}`, c + 1)]);
    const count = () => new Set(f.received.flatMap((b) => b.commits).map((c) => c.events[0]!.id)).size;
    await until(() => count() >= 10, 'the first ten');
    await first.stop();
    for (let c = 10; c < 20; c++) await f.append(`comment-a${c}`, [commentCreated('p', `a${c}`, c + 1)]);
    const second = makeBus(f.eventStore, f.store);
    await second.start(f.consumer());
    t.teardown(() => second.stop());
    await until(() => count() >= 20, 'the ten appended while it was stopped');
    t.equal(count(), 20);
    const redelivered = f.received.flatMap((b) => b.commits).length - 20;
    t.ok(redelivered <= 10, `at most the unacknowledged tail comes again (${redelivered})`);
  });
}
