import { commentDecider, commentNumbersDecider, type CommentCommand } from '@feedback/domain';
import { streams, type Attachment, type CommentMetadata, type CommentPriority, type Person, newId } from '@feedback/events';
import { handleCommand, type CommandContext } from '@feedback/event-store';
import { commentsProjection, type CommentDoc } from '@feedback/projector';
import type { ProjectRef } from '@feedback/http';
import type { CommandDeps } from '../deps.js';

type Deps = Pick<CommandDeps, 'eventStore'>;

export interface NewComment {
  text: string;
  url: string;
  title?: string | null;
  priority: CommentPriority;
  author: Person | null;
  metadata: CommentMetadata;
  attachments: Attachment[];
}

/**
 * Numbers come from the project's commentNumbers stream: creations arriving together in one
 * process are numbered in one append there, and racing processes conflict on it and retry, so
 * ten at once get ten consecutive numbers. The comment's own stream starts after.
 */
export async function createComment(deps: Deps, project: ProjectRef, input: NewComment, context: CommandContext) {
  const commentId = newId();
  const { result: commentNumber } = await handleCommand(
    deps.eventStore,
    streams.commentNumbers(project.projectId),
    commentNumbersDecider,
    { type: 'AssignCommentNumber', projectId: project.projectId, commentId },
    context,
  );
  const { position } = await executeCommentCommand(
    deps,
    commentId,
    {
      type: 'CreateComment',
      commentId,
      commentNumber,
      accountId: project.accountId,
      projectId: project.projectId,
      domain: project.domain,
      pageUrl: input.url,
      title: input.title ?? null,
      text: input.text,
      priority: input.priority,
      author: input.author,
      metadata: input.metadata,
      attachments: input.attachments,
    },
    context,
  );
  return { commentId, position };
}

export function executeCommentCommand(deps: Deps, commentId: string, command: CommentCommand, context: CommandContext) {
  return handleCommand(deps.eventStore, streams.comment(commentId), commentDecider, command, context);
}

/** The comment as its own stream says now: answers writes without waiting for read models. */
export async function currentComment(deps: Deps, commentId: string): Promise<CommentDoc | null> {
  let doc: CommentDoc | null = null;
  for (const event of await deps.eventStore.readStream(streams.comment(commentId))) doc = commentsProjection.evolve(doc, event) as CommentDoc | null;
  return doc;
}

export const newReplyId = () => newId();
