import t from 'tap';
import type { FeedbackEvent } from '@feedback/events';
import { commentDecider, commentLink, commentNumbersDecider, slugOf, type CommentCommand } from './comment.js';
import { fold } from './decider.js';
import { DomainError } from './errors.js';

const decide = (history: FeedbackEvent[], command: CommentCommand) => commentDecider.decide(command, fold(commentDecider, history));
const scope = { accountId: 'A' };
const create: CommentCommand = {
  type: 'CreateComment', commentId: 'C', commentNumber: 7, accountId: 'A', projectId: 'P', domain: 'https://x.test', pageUrl: 'https://x.test/a/b?q=1#top',
  title: null, text: 't', priority: 'normal', author: null, metadata: { consoleErrors: [] }, attachments: [],
};
const created = decide([], create).events;

t.test('a new comment starts as todo with its page path as slug', async (t) => {
  t.match(created[0], { type: 'CommentCreated', data: { status: 'todo', slug: '/a/b', commentNumber: 7 } });
  t.equal(commentLink('https://x.test/a#old', 'C'), 'https://x.test/a#sc-comment-C');
  t.equal(slugOf('not a url'), '/not a url');
});

t.test('one update changing status and priority records both, with what they were', async (t) => {
  const { events, result } = decide(created, { type: 'UpdateComment', status: 'done', priority: 'high', scope });
  t.same(events, [
    { type: 'CommentStatusChanged', data: { commentId: 'C', previousStatus: 'todo', status: 'done' } },
    { type: 'CommentPriorityChanged', data: { commentId: 'C', previousPriority: 'normal', priority: 'high' } },
  ]);
  t.same(result, { oldStatus: 'todo', newStatus: 'done' });
  t.same(decide([...created, ...events], { type: 'UpdateComment', status: 'done', scope }).events, [], 'no change, no event');
});

t.test('archiving is a soft delete, once', async (t) => {
  const archived = decide(created, { type: 'ArchiveComment', scope }).events;
  t.same(archived, [{ type: 'CommentArchived', data: { commentId: 'C' } }]);
  t.same(decide([...created, ...archived], { type: 'ArchiveComment', scope }).events, []);
});

t.test('other accounts and other projects do not see the comment', async (t) => {
  t.throws(() => decide(created, { type: 'ArchiveComment', scope: { accountId: 'B' } }), new DomainError('not_found', 'Comment not found'));
  t.throws(() => decide(created, { type: 'ArchiveComment', scope: { accountId: 'A', projectId: 'Q' } }), DomainError);
  t.throws(() => decide([], { type: 'ArchiveComment', scope }), DomainError);
});

t.test('comment numbers follow the last one assigned', async (t) => {
  const first = commentNumbersDecider.decide({ type: 'AssignCommentNumber', projectId: 'P', commentId: 'C1' }, commentNumbersDecider.initialState());
  t.equal(first.result, 1);
  const state = fold(commentNumbersDecider, first.events);
  t.equal(commentNumbersDecider.decide({ type: 'AssignCommentNumber', projectId: 'P', commentId: 'C2' }, state).result, 2);
});
