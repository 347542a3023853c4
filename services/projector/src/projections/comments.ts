import { textFormat, type Attachment, type CommentMetadata, type CommentPriority, type CommentStatus, type DevBrief, type Person } from '@feedback/events';
import { commentLink } from '@feedback/domain';
import { defineProjection } from './projection.js';

export interface ReplyDoc {
  id: string;
  text: string;
  textFormat: typeof textFormat;
  by: string;
  author: Person | null;
  attachments: Attachment[];
  date: string;
}

export interface CommentDoc {
  id: string;
  commentNumber: number;
  accountId: string;
  projectId: string;
  domain: string;
  pageUrl: string;
  slug: string;
  title: string | null;
  text: string;
  textFormat: typeof textFormat;
  status: CommentStatus;
  priority: CommentPriority;
  archived: boolean;
  by: string;
  userData: { name: string | null; email: string | null } | null;
  metadata: CommentMetadata & { consoleErrorCount: number };
  attachments: Attachment[];
  brief: DevBrief | null;
  replies: ReplyDoc[];
  createdAt: string;
  updatedAt: string;
}

/** How a person is named in `by`: their name, else their email, else anonymous. */
export const displayName = (person: Person | null) => person?.name || person?.email || 'Anonymous';

export const commentsProjection = defineProjection<CommentDoc>({
  collection: 'comments',
  // Newest first within a project is the list's order; comment ids are ULIDs, so id order is time order.
  indexes: [['projectId', 'id'], ['accountId', 'id'], ['projectId', 'status'], ['projectId', 'priority'], ['projectId', 'archived']],
  handles: ['CommentCreated', 'CommentReplied', 'CommentStatusChanged', 'CommentPriorityChanged', 'CommentTitleChanged', 'CommentArchived', 'CommentDevBriefWritten'],
  documentId: (event) => ('commentId' in event.data ? event.data.commentId : null),
  evolve(doc, event) {
    const touch = <T extends CommentDoc>(d: T) => ({ ...d, updatedAt: event.occurredAt });
    switch (event.type) {
      case 'CommentCreated': {
        const d = event.data;
        return {
          id: d.commentId,
          commentNumber: d.commentNumber,
          accountId: d.accountId,
          projectId: d.projectId,
          domain: d.domain,
          pageUrl: d.pageUrl,
          slug: d.slug,
          title: d.title,
          text: d.text,
          textFormat,
          status: d.status,
          priority: d.priority,
          archived: false,
          by: displayName(d.author),
          userData: d.author ? { name: d.author.name ?? null, email: d.author.email ?? null } : null,
          metadata: { ...d.metadata, consoleErrorCount: d.metadata.consoleErrors.length },
          attachments: d.attachments,
          brief: null,
          replies: [],
          createdAt: event.occurredAt,
          updatedAt: event.occurredAt,
        };
      }
      case 'CommentReplied':
        return (
          doc &&
          touch({
            ...doc,
            replies: [
              ...doc.replies,
              { id: event.data.replyId, text: event.data.text, textFormat, by: displayName(event.data.author), author: event.data.author, attachments: event.data.attachments, date: event.occurredAt },
            ],
          })
        );
      case 'CommentStatusChanged':
        return doc && touch({ ...doc, status: event.data.status });
      case 'CommentPriorityChanged':
        return doc && touch({ ...doc, priority: event.data.priority });
      case 'CommentTitleChanged':
        return doc && touch({ ...doc, title: event.data.title });
      case 'CommentArchived':
        return doc && touch({ ...doc, archived: true });
      case 'CommentDevBriefWritten':
        return doc && touch({ ...doc, brief: event.data.brief });
      default:
        return doc;
    }
  },
});

/** A comment as the REST API returns it (decisions.md section 3). */
export function commentView(doc: CommentDoc, options: { fullMetadata: boolean }) {
  const { consoleErrors, ...metadata } = doc.metadata;
  return {
    id: doc.id,
    commentNumber: doc.commentNumber,
    projectId: doc.projectId,
    domain: doc.domain,
    slug: doc.slug,
    link: commentLink(doc.pageUrl, doc.id),
    title: doc.title,
    text: doc.text,
    textFormat: doc.textFormat,
    status: doc.status,
    priority: doc.priority,
    archived: doc.archived,
    by: doc.by,
    userData: doc.userData,
    metadata: options.fullMetadata ? { ...metadata, consoleErrors } : metadata,
    attachments: doc.attachments,
    brief: doc.brief,
    replies: doc.replies.map(replyView),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export const replyView = (reply: ReplyDoc) => ({ id: reply.id, text: reply.text, textFormat: reply.textFormat, by: reply.by, date: reply.date });
