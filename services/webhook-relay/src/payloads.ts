import type { Actor, Attachment, CommentMetadata, CommentPriority, CommentStatus, Person, StoredEvent, WebhookTrigger } from '@feedback/events';
import type { RelayComment, RelayProject } from './relayState.js';

// The outbound payloads of spec section 6, field for field and in the spec's order, `type` first.

export interface CommentPayload {
  type: 'comment';
  commentId: string;
  commentNumber: number;
  projectId: string | null;
  projectName: string | null;
  publicKey: string | null;
  title: string | null;
  text: string;
  status: CommentStatus;
  priority: CommentPriority;
  date: string;
  by: string;
  userData: { name: string | null; email: string | null } | null;
  domain: string;
  slug: string;
  link: string;
  metadata: CommentMetadata;
  mentions: Array<{ email: string }>;
  attachedUsers: Array<{ email: string; name: string | null }>;
  attachments: Attachment[];
}

export interface ReplyPayload {
  type: 'reply';
  commentId: string;
  commentNumber: number;
  replyText: string;
  date: string;
  by: string;
  domain: string;
  slug: string;
  link: string;
  metadata: CommentMetadata;
  attachments: Attachment[];
}

export interface StatusUpdatePayload {
  type: 'status_update';
  commentId: string;
  commentNumber: number;
  status: CommentStatus;
  priority: CommentPriority;
  previousStatus: CommentStatus;
  previousPriority: CommentPriority;
  updatedFields: Array<'status' | 'priority'>;
  date: string;
  by: string;
  domain: string;
  slug: string;
  link: string;
}

export type Payload = CommentPayload | ReplyPayload | StatusUpdatePayload;

const actorLabels: Record<Actor['type'], string> = {
  operator: 'Operator',
  integrationToken: 'API integration',
  inboundToken: 'Inbound action',
  member: 'Team member',
  client: 'Client',
  system: 'System',
};

const personName = (person: Person | null) => person?.name || person?.email || 'Anonymous';
const actorName = (actor: Actor) => actor.name || actor.email || actorLabels[actor.type];

// `@jane@example.com` in the text mentions Jane; the spec leaves the element shape open.
const mentionPattern = /(?:^|[\s(])@([^\s@()<>,;:"']+@[^\s@()<>,;:"']+\.[A-Za-z]{2,})/g;
export function mentionsIn(text: string): Array<{ email: string }> {
  const emails = new Set<string>();
  for (const match of text.matchAll(mentionPattern)) emails.add(match[1]!.replace(/[.]+$/, '').toLowerCase());
  return [...emails].map((email) => ({ email }));
}

export function commentPayload(event: Extract<StoredEvent, { type: 'CommentCreated' }>, comment: RelayComment, project: RelayProject): CommentPayload {
  const d = event.data;
  return {
    type: 'comment',
    commentId: d.commentId,
    commentNumber: d.commentNumber,
    projectId: d.projectId,
    projectName: project.name,
    publicKey: project.publicKey,
    title: d.title,
    text: d.text,
    status: d.status,
    priority: d.priority,
    date: event.occurredAt,
    by: personName(d.author),
    userData: d.author ? { name: d.author.name ?? null, email: d.author.email ?? null } : null,
    domain: comment.domain,
    slug: comment.slug,
    link: comment.link,
    metadata: d.metadata,
    mentions: mentionsIn(d.text),
    // Nobody can tag users on a comment through this API yet, so nobody is attached.
    attachedUsers: [],
    attachments: d.attachments,
  };
}

export function replyPayload(event: Extract<StoredEvent, { type: 'CommentReplied' }>, comment: RelayComment): ReplyPayload {
  return {
    type: 'reply',
    commentId: comment.id,
    commentNumber: comment.commentNumber,
    replyText: event.data.text,
    date: event.occurredAt,
    by: event.data.author ? personName(event.data.author) : actorName(event.metadata.actor),
    domain: comment.domain,
    slug: comment.slug,
    link: comment.link,
    metadata: comment.metadata,
    attachments: event.data.attachments,
  };
}

/** One notification for every status and priority change of one commit. */
export function statusUpdatePayload(before: RelayComment, after: RelayComment, last: StoredEvent): StatusUpdatePayload | null {
  const updatedFields: Array<'status' | 'priority'> = [];
  if (before.status !== after.status) updatedFields.push('status');
  if (before.priority !== after.priority) updatedFields.push('priority');
  if (updatedFields.length === 0) return null;
  return {
    type: 'status_update',
    commentId: after.id,
    commentNumber: after.commentNumber,
    status: after.status,
    priority: after.priority,
    previousStatus: before.status,
    previousPriority: before.priority,
    updatedFields,
    date: last.occurredAt,
    by: actorName(last.metadata.actor),
    domain: after.domain,
    slug: after.slug,
    link: after.link,
  };
}

export const triggerOf = (payload: Payload): WebhookTrigger => payload.type;
