import { z } from 'zod';
import { Attachment, CommentMetadata, CommentPriority, CommentStatus, DevBrief, Person } from './values.js';

// Stream commentNumbers-{projectId}: the sequence of human-readable comment numbers.
export const CommentNumberAssigned = z.object({
  projectId: z.string(),
  commentId: z.string(),
  commentNumber: z.number().int().positive(),
});

// Stream comment-{commentId}: the whole life of one comment, its audit trail.
export const CommentCreated = z.object({
  commentId: z.string(),
  commentNumber: z.number().int().positive(),
  accountId: z.string(),
  projectId: z.string(),
  /** The project's domain when the comment was made. */
  domain: z.string(),
  pageUrl: z.string(),
  slug: z.string(),
  title: z.string().nullable(),
  text: z.string(),
  status: CommentStatus,
  priority: CommentPriority,
  author: Person.nullable(),
  metadata: CommentMetadata,
  attachments: z.array(Attachment),
});
export const CommentReplied = z.object({
  commentId: z.string(),
  replyId: z.string(),
  text: z.string(),
  author: Person.nullable(),
  attachments: z.array(Attachment).default([]),
});
export const CommentStatusChanged = z.object({
  commentId: z.string(),
  previousStatus: CommentStatus,
  status: CommentStatus,
});
export const CommentPriorityChanged = z.object({
  commentId: z.string(),
  previousPriority: CommentPriority,
  priority: CommentPriority,
});
export const CommentTitleChanged = z.object({ commentId: z.string(), title: z.string().nullable() });
export const CommentArchived = z.object({ commentId: z.string() });
export const CommentDevBriefWritten = z.object({ commentId: z.string(), brief: DevBrief });

// Stream idempotency-{keyHash}: the first answer to a POST sent with an Idempotency-Key.
export const IdempotentResponseRecorded = z.object({
  method: z.string(),
  path: z.string(),
  statusCode: z.number().int(),
  body: z.unknown(),
});
