import type { Attachment, CommentMetadata, CommentPriority, CommentStatus, StoredEvent } from '@feedback/events';
import { commentLink, type Webhook } from '@feedback/domain';

// The relay's own memory of the log: enough of each project and comment to write every
// payload field. Built only from the events it consumed, never from the query read models,
// so `previousStatus` is what the relay itself last saw.

/** A webhook as the command API recorded it, secret included: what a delivery needs. */
export type RelayWebhook = Webhook;

export type RelayProject = {
  id: string;
  _position: number;
  accountId: string | null;
  name: string | null;
  publicKey: string | null;
  domain: string | null;
  webhooks: Record<string, RelayWebhook>;
};

export type RelayComment = {
  id: string;
  _position: number;
  projectId: string;
  commentNumber: number;
  domain: string;
  slug: string;
  link: string;
  title: string | null;
  status: CommentStatus;
  priority: CommentPriority;
  metadata: CommentMetadata;
  attachments: Attachment[];
};

export const emptyProject = (projectId: string): RelayProject => ({
  id: projectId,
  _position: 0,
  accountId: null,
  name: null,
  publicKey: null,
  domain: null,
  webhooks: {},
});

/** The project an event names in its data: its Kafka key, and where the relay keeps its state. */
export function projectOf(event: StoredEvent): string | null {
  switch (event.type) {
    case 'CommentCreated':
    case 'ProjectCreated':
    case 'ProjectRenamed':
    case 'WebhookCreated':
    case 'WebhookUpdated':
    case 'WebhookDeleted':
    case 'WebhookDisabledByReceiver':
    case 'WebhookDeliveryRetryRequested':
    case 'WebhookReplayRequested':
      return event.data.projectId;
    default:
      return null;
  }
}

export function evolveProject(project: RelayProject, event: StoredEvent): RelayProject {
  switch (event.type) {
    case 'ProjectCreated':
      return { ...project, accountId: event.data.accountId, name: event.data.name ?? null, publicKey: event.data.publicKey, domain: event.data.domain };
    case 'ProjectRenamed':
      return { ...project, name: event.data.name };
    case 'WebhookCreated': {
      const { projectId: _, ...webhook } = event.data;
      return { ...project, webhooks: { ...project.webhooks, [webhook.webhookId]: webhook } };
    }
    case 'WebhookUpdated': {
      const current = project.webhooks[event.data.webhookId];
      if (!current) return project;
      const { projectId: _p, webhookId: _w, ...changes } = event.data;
      const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      return { ...project, webhooks: { ...project.webhooks, [current.webhookId]: { ...current, ...defined } } };
    }
    case 'WebhookDisabledByReceiver': {
      const current = project.webhooks[event.data.webhookId];
      return current ? { ...project, webhooks: { ...project.webhooks, [current.webhookId]: { ...current, enabled: false } } } : project;
    }
    case 'WebhookDeleted': {
      const { [event.data.webhookId]: _, ...rest } = project.webhooks;
      return { ...project, webhooks: rest };
    }
    default:
      return project;
  }
}

/** Null when the event is not one the relay keeps comment state from. */
export function evolveComment(comment: RelayComment | null, event: StoredEvent): RelayComment | null {
  switch (event.type) {
    case 'CommentCreated': {
      const d = event.data;
      return {
        id: d.commentId,
        _position: event.position,
        projectId: d.projectId,
        commentNumber: d.commentNumber,
        domain: d.domain,
        slug: d.slug,
        link: commentLink(d.pageUrl, d.commentId),
        title: d.title,
        status: d.status,
        priority: d.priority,
        metadata: d.metadata,
        attachments: d.attachments,
      };
    }
    case 'CommentStatusChanged':
      return comment && { ...comment, status: event.data.status };
    case 'CommentPriorityChanged':
      return comment && { ...comment, priority: event.data.priority };
    case 'CommentTitleChanged':
      return comment && { ...comment, title: event.data.title };
    default:
      return comment;
  }
}
