import t from 'tap';
import { commentNumbersDecider } from '@feedback/domain';
import { streams } from '@feedback/events';
import { getSqliteEventStore, handleCommand, type Aggregate } from '@feedback/event-store';

type Assign = { type: 'AssignCommentNumber'; projectId: string; commentId: string };
// The numbering decider, refusing one comment: a command that fails inside a group fails alone.
const numbering: Aggregate<{ last: number }, Assign, number> = {
  ...commentNumbersDecider,
  decide: (command, state) => {
    if (command.commentId === 'refused') throw new Error('refused');
    return commentNumbersDecider.decide(command, state);
  },
};

t.test('commands arriving together on one stream: each decided on the state before it, one fails alone, each keeps its own metadata', async (t) => {
  const store = getSqliteEventStore({ path: ':memory:' });
  t.teardown(() => store.close());
  const stream = streams.commentNumbers('P');
  const asked = Array.from({ length: 40 }, (_, i) => (i === 17 ? 'refused' : `c${i}`));
  const results = await Promise.allSettled(asked.map((commentId) => handleCommand(store, stream, numbering, { type: 'AssignCommentNumber', projectId: 'P', commentId }, { actor: { type: 'system', id: 'test' }, correlationId: `corr-${commentId}` })));
  t.equal(results.filter((r) => r.status === 'rejected').length, 1, 'only the refused command fails');
  const numbers = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.result] : []));
  t.same([...numbers].sort((a, b) => a - b), Array.from({ length: 39 }, (_, i) => i + 1), '39 distinct consecutive numbers');
  const events = await store.readStream(stream);
  t.equal(events.length, 39);
  for (const event of events) {
    const commentId = (event.data as { commentId: string }).commentId;
    t.equal(event.metadata.correlationId, `corr-${commentId}`, 'each event carries the correlation id of its own command');
  }
  t.equal(new Set(events.map((e) => e.metadata.causationId)).size, 39, 'one causation id per command');
  // A later command continues from the state the group left.
  const next = await handleCommand(store, stream, numbering, { type: 'AssignCommentNumber', projectId: 'P', commentId: 'later' }, { actor: { type: 'system', id: 'test' }, correlationId: 'later' });
  t.equal(next.result, 40);
});
