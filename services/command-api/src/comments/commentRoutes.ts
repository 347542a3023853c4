import { z } from 'zod';
import { Attachment, CommentMetadata, CommentPriority, CommentStatus, Person } from '@feedback/events';
import { ApiError, resolveProject, type HttpApp } from '@feedback/http';
import { commentView, displayName } from '@feedback/projector';
import type { CommandDeps } from '../deps.js';
import { awaitReadModels, commandContext } from '../http.js';
import { createComment, currentComment, executeCommentCommand, newReplyId } from './commentCommands.js';

const CreateBody = z.object({
  domainId: z.string().min(1),
  text: z.string().min(1).max(50_000),
  url: z.url().max(4_000),
  title: z.string().max(500).nullish(),
  priority: CommentPriority.default('normal'),
  author: Person.nullish(),
  metadata: CommentMetadata.default({ consoleErrors: [] }),
  attachments: z.array(Attachment).max(50).default([]),
});
const ReplyBody = z.object({
  commentId: z.string().min(1),
  text: z.string().min(1).max(50_000),
  name: z.string().max(200).optional(),
  email: z.email().max(320).optional(),
});
const UpdateBody = z
  .object({ commentId: z.string().min(1), status: CommentStatus.optional(), priority: CommentPriority.optional(), title: z.string().max(500).nullable().optional() })
  .refine((b) => b.status !== undefined || b.priority !== undefined || b.title !== undefined, { message: 'one of status, priority or title is required' });

/** decisions.md section 3: create, reply to and update comments. */
export function commentRoutes(app: HttpApp, deps: CommandDeps) {
  app.post('/comments/create', { schema: { body: CreateBody }, config: { scope: 'write' } }, async (request, reply) => {
    const { principal, context } = commandContext(request);
    const { domainId, author, ...input } = request.body;
    const project = await resolveProject(deps.readStore, principal.accountId, domainId);
    const { commentId, position } = await createComment(deps, project, { ...input, author: author ?? null }, context);
    await awaitReadModels(deps, request, position);
    const doc = await currentComment(deps, commentId);
    return reply.status(201).send(commentView(doc!, { fullMetadata: true }));
  });

  app.post('/comments/reply', { schema: { body: ReplyBody }, config: { scope: 'write' } }, async (request, reply) => {
    const { principal, context } = commandContext(request);
    const { commentId, text, name, email } = request.body;
    const author = name || email ? { name, email } : null;
    const replyId = newReplyId();
    const { position } = await executeCommentCommand(
      deps,
      commentId,
      { type: 'ReplyToComment', replyId, text, author, attachments: [], scope: { accountId: principal.accountId } },
      context,
    );
    await awaitReadModels(deps, request, position);
    const doc = await currentComment(deps, commentId);
    const added = doc?.replies.find((r) => r.id === replyId);
    if (!added) throw new ApiError(500, 'Reply was not recorded');
    return reply.status(201).send({ id: added.id, text: added.text, textFormat: added.textFormat, by: displayName(added.author), date: added.date });
  });

  app.post('/comments/update', { schema: { body: UpdateBody }, config: { scope: 'write' } }, async (request) => {
    const { principal, context } = commandContext(request);
    const { commentId, status, priority, title } = request.body;
    const { result, position } = await executeCommentCommand(
      deps,
      commentId,
      { type: 'UpdateComment', status, priority, title, scope: { accountId: principal.accountId } },
      context,
    );
    await awaitReadModels(deps, request, position);
    const doc = await currentComment(deps, commentId);
    return { comment: commentView(doc!, { fullMetadata: true }), oldStatus: result.oldStatus, newStatus: result.newStatus };
  });
}
