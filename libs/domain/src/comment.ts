import type { Attachment, CommentMetadata, CommentPriority, CommentStatus, DevBrief, FeedbackEvent, Person } from '@feedback/events';
import type { Decider } from './decider.js';
import { conflict, notFound } from './errors.js';

// Comment = one piece of feedback pinned on a page, with its replies and triage state.

export interface CommentState {
  commentId: string | null;
  projectId: string | null;
  accountId: string | null;
  commentNumber: number;
  status: CommentStatus;
  priority: CommentPriority;
  title: string | null;
  archived: boolean;
}

export type CommentCommand =
  | {
      type: 'CreateComment';
      commentId: string;
      commentNumber: number;
      accountId: string;
      projectId: string;
      domain: string;
      pageUrl: string;
      title: string | null;
      text: string;
      priority: CommentPriority;
      author: Person | null;
      metadata: CommentMetadata;
      attachments: Attachment[];
    }
  | ({ type: 'ReplyToComment'; replyId: string; text: string; author: Person | null; attachments: Attachment[] } & Scoped)
  | ({ type: 'UpdateComment'; status?: CommentStatus; priority?: CommentPriority; title?: string | null } & Scoped)
  | ({ type: 'ArchiveComment' } & Scoped)
  | ({ type: 'WriteDevBrief'; brief: DevBrief } & Scoped);

/** Who may touch the comment: its account, and when given, only this project of it. */
interface Scoped {
  scope: { accountId: string; projectId?: string };
}

export interface CommentResult {
  oldStatus: CommentStatus;
  newStatus: CommentStatus;
}

export const initialCommentState = (): CommentState => ({
  commentId: null,
  projectId: null,
  accountId: null,
  commentNumber: 0,
  status: 'todo',
  priority: 'normal',
  title: null,
  archived: false,
});

export function evolveComment(state: CommentState, event: FeedbackEvent): CommentState {
  switch (event.type) {
    case 'CommentCreated':
      return {
        ...state,
        commentId: event.data.commentId,
        projectId: event.data.projectId,
        accountId: event.data.accountId,
        commentNumber: event.data.commentNumber,
        status: event.data.status,
        priority: event.data.priority,
        title: event.data.title,
      };
    case 'CommentStatusChanged':
      return { ...state, status: event.data.status };
    case 'CommentPriorityChanged':
      return { ...state, priority: event.data.priority };
    case 'CommentTitleChanged':
      return { ...state, title: event.data.title };
    case 'CommentArchived':
      return { ...state, archived: true };
    default:
      return state;
  }
}

/** The page URL with a fragment that identifies the comment: where the widget opens it. */
export function commentLink(pageUrl: string, commentId: string): string {
  return `${pageUrl.replace(/#.*$/, '')}#sc-comment-${commentId}`;
}

/** The path of the page the comment was placed on: what webhooks call `slug`. */
export function slugOf(pageUrl: string): string {
  try {
    const url = new URL(pageUrl);
    return url.pathname || '/';
  } catch {
    return pageUrl.startsWith('/') ? pageUrl : `/${pageUrl}`;
  }
}

export function decideComment(command: CommentCommand, state: CommentState): { events: FeedbackEvent[]; result: CommentResult } {
  const unchanged = { oldStatus: state.status, newStatus: state.status };
  if (command.type === 'CreateComment') {
    if (state.commentId) throw conflict('Comment already exists');
    const { type: _t, ...data } = command;
    return {
      events: [{ type: 'CommentCreated', data: { ...data, slug: slugOf(command.pageUrl), status: 'todo' } }],
      result: { oldStatus: 'todo', newStatus: 'todo' },
    };
  }
  const commentId = state.commentId;
  const { accountId, projectId } = command.scope;
  // Another account's comment, or another project's for a project-scoped caller, does not exist for the caller.
  if (!commentId || state.accountId !== accountId || (projectId !== undefined && state.projectId !== projectId)) throw notFound('Comment not found');
  switch (command.type) {
    case 'ReplyToComment': {
      const { replyId, text, author, attachments } = command;
      return { events: [{ type: 'CommentReplied', data: { commentId, replyId, text, author, attachments } }], result: unchanged };
    }
    case 'UpdateComment': {
      const events: FeedbackEvent[] = [];
      if (command.status !== undefined && command.status !== state.status)
        events.push({ type: 'CommentStatusChanged', data: { commentId, previousStatus: state.status, status: command.status } });
      if (command.priority !== undefined && command.priority !== state.priority)
        events.push({ type: 'CommentPriorityChanged', data: { commentId, previousPriority: state.priority, priority: command.priority } });
      if (command.title !== undefined && command.title !== state.title)
        events.push({ type: 'CommentTitleChanged', data: { commentId, title: command.title } });
      return { events, result: { oldStatus: state.status, newStatus: command.status ?? state.status } };
    }
    case 'ArchiveComment':
      if (state.archived) return { events: [], result: unchanged };
      return { events: [{ type: 'CommentArchived', data: { commentId } }], result: unchanged };
    case 'WriteDevBrief':
      return { events: [{ type: 'CommentDevBriefWritten', data: { commentId, brief: command.brief } }], result: unchanged };
  }
}

export const commentDecider: Decider<CommentState, CommentCommand, CommentResult> = {
  initialState: initialCommentState,
  evolve: evolveComment,
  decide: decideComment,
};

// commentNumbers-{projectId}: the next number is the count so far plus one. Two creations
// racing for one number conflict on this stream's revision; the loser retries with the next.
export const commentNumbersDecider: Decider<{ last: number }, { type: 'AssignCommentNumber'; projectId: string; commentId: string }, number> = {
  initialState: () => ({ last: 0 }),
  evolve: (state, event) => (event.type === 'CommentNumberAssigned' ? { last: event.data.commentNumber } : state),
  decide: (command, state) => {
    const commentNumber = state.last + 1;
    return {
      events: [{ type: 'CommentNumberAssigned', data: { projectId: command.projectId, commentId: command.commentId, commentNumber } }],
      result: commentNumber,
    };
  },
};
