import { z } from 'zod';
import { DomainError, inboundTokenState } from '@feedback/domain';
import { commentPriorities, commentStatuses, streams, type InboundAction } from '@feedback/events';
import type { CommandContext } from '@feedback/event-store';
import { ApiError, resolveProject, type HttpApp } from '@feedback/http';
import { hashToken } from '@feedback/platform';
import type { CommandDeps } from '../deps.js';
import { awaitReadModels } from '../http.js';
import { executeCommentCommand, newReplyId } from '../comments/commentCommands.js';

const Body = z.object({ token: z.string().min(1), action: z.string().min(1), payload: z.record(z.string(), z.unknown()).default({}) });
const Reply = z.object({ commentId: z.string().min(1), text: z.string().min(1).max(50_000), name: z.string().max(200).optional(), email: z.string().max(320).optional() });
const StatusUpdate = z.object({ commentId: z.string().min(1), status: z.string().optional(), priority: z.string().optional() });
const Delete = z.object({ commentId: z.string().min(1) });

function parse<T>(schema: z.ZodType<T>, payload: unknown): T {
  const result = schema.safeParse(payload);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ApiError(400, `payload.${issue.path.join('.')}: ${issue.message}`);
  }
  return result.data;
}

/**
 * POST {app_url}/api/integrations/action (spec 4.5, 7.4): external systems reply to, re-status
 * and archive comments with an inbound token sent in the body. Status codes and messages,
 * including the 500s, are the spec's.
 */
export function inboundActionRoute(app: HttpApp, deps: CommandDeps) {
  app.post('/api/integrations/action', { schema: { body: Body } }, async (request) => {
    const { token, action, payload } = request.body;
    const tokenHash = hashToken(token);
    const state = inboundTokenState(await deps.eventStore.readStream(streams.inboundToken(tokenHash)));
    if (!state.accountId || !state.tokenId || state.revoked) throw new ApiError(403, 'Invalid token');
    if (!state.actions.includes(action as InboundAction)) throw new ApiError(403, 'Action not allowed');
    let projectId = state.projectId;
    if (!projectId) {
      const domain = typeof payload.domain === 'string' ? payload.domain.trim() : '';
      if (!domain) throw new ApiError(400, 'Domain is required for user-level tokens');
      projectId = (await resolveProject(deps.readStore, state.accountId, domain)).projectId;
    }
    const scope = { accountId: state.accountId, projectId };
    const context: CommandContext = { actor: { type: 'inboundToken', id: state.tokenId, accountId: state.accountId }, correlationId: request.id };
    const notFound = (commentId: string) => new ApiError(500, `Comment with ID ${commentId} not found`);
    const run = async <T>(commentId: string, work: () => Promise<T>) => {
      try {
        return await work();
      } catch (error) {
        if (error instanceof DomainError && error.kind === 'not_found') throw notFound(commentId);
        throw error;
      }
    };

    switch (action as InboundAction) {
      case 'reply': {
        const { commentId, text, name, email } = parse(Reply, payload);
        const replyId = newReplyId();
        const author = name || email ? { name, email } : { name: 'Integration' };
        const { position } = await run(commentId, () =>
          executeCommentCommand(deps, commentId, { type: 'ReplyToComment', replyId, text, author, attachments: [], scope }, { ...context, actor: { ...context.actor, name, email } }),
        );
        await awaitReadModels(deps, request, position);
        return { success: true, message: 'Reply added', result: { _id: commentId, replyId } };
      }
      case 'status_update': {
        const { commentId, status, priority } = parse(StatusUpdate, payload);
        if (status === undefined && priority === undefined) throw new ApiError(400, 'status_update requires status or priority');
        if (status !== undefined && !(commentStatuses as readonly string[]).includes(status))
          throw new ApiError(500, `Invalid status: ${status}. Must be one of: ${commentStatuses.join(', ')}`);
        if (priority !== undefined && !(commentPriorities as readonly string[]).includes(priority))
          throw new ApiError(500, `Invalid priority: ${priority}. Must be one of: ${commentPriorities.join(', ')}`);
        const { result, position } = await run(commentId, () =>
          executeCommentCommand(deps, commentId, { type: 'UpdateComment', status: status as never, priority: priority as never, scope }, context),
        );
        await awaitReadModels(deps, request, position);
        return { success: true, message: 'Comment updated', result: { _id: commentId, oldStatus: result.oldStatus, newStatus: result.newStatus } };
      }
      case 'delete': {
        const { commentId } = parse(Delete, payload);
        const { position } = await run(commentId, () => executeCommentCommand(deps, commentId, { type: 'ArchiveComment', scope }, context));
        await awaitReadModels(deps, request, position);
        return { success: true, message: 'Comment archived', result: { _id: commentId, archived: true } };
      }
    }
  });
}
