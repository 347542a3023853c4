import { ulid } from 'ulid';
import { createAccount, createProject, createWebhook } from '@feedback/command-api';
import type { CommentStatus, WebhookTrigger } from '@feedback/events';
import type { EventStore } from '@feedback/event-store';
import { loadConfig } from '@feedback/platform';
import { createComment, executeCommentCommand } from '../../services/command-api/src/comments/commentCommands.js';
import type { Received } from './receiver.js';

const context = () => ({ actor: { type: 'operator' as const, id: 'relay-test' }, correlationId: ulid() });
export const statusCycle: CommentStatus[] = ['in_progress', 'review', 'done'];

/** A workspace whose project has one webhook per trigger, all pointing at `receiverUrl`. */
export async function seedProject(eventStore: EventStore, receiverUrl: string, triggers: WebhookTrigger[] = ['comment', 'status_update']) {
  const deps = { eventStore, config: loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }) };
  const { accountId } = await createAccount(deps, { ownerEmail: `relay-${ulid()}@example.com`, ownerName: 'Relay test' }, context());
  const { project } = await createProject(deps, accountId, { domain: `https://relay-${ulid().toLowerCase()}.example.com` }, context());
  for (const event of triggers) await createWebhook(deps, project.projectId, { name: event, event, url: `${receiverUrl}/${event}`, method: 'POST', auth: { mode: 'none' }, enabled: true }, context());
  return { accountId, projectRef: { ...project, id: project.projectId, accountId, settings: {} } };
}

/** One comment and its status cycle, written through the same commands as the API. */
export async function commentWithUpdates(eventStore: EventStore, seeded: Awaited<ReturnType<typeof seedProject>>, n: number): Promise<string> {
  const deps = { eventStore };
  const { commentId } = await createComment(deps, seeded.projectRef, { text: `c${n}`, url: `${seeded.projectRef.domain}/p`, priority: 'normal', author: null, metadata: { consoleErrors: [] }, attachments: [] }, context());
  for (const status of statusCycle) await executeCommentCommand(deps, commentId, { type: 'UpdateComment', status, scope: { accountId: seeded.accountId } }, context());
  return commentId;
}

/**
 * What a receiver that dedupes on webhook-id sees: each delivery once, in first-arrival order.
 * Returns the comments whose status updates did not arrive in the order they happened.
 */
export function outOfOrder(received: Received[]): string[] {
  const seen = new Set<string>();
  const statuses = new Map<string, string[]>();
  for (const request of received) {
    const id = String(request.headers['webhook-id']);
    if (seen.has(id)) continue;
    seen.add(id);
    if (request.json?.type !== 'status_update') continue;
    statuses.set(request.json.commentId, [...(statuses.get(request.json.commentId) ?? []), request.json.status]);
  }
  return [...statuses].filter(([, got]) => got.join() !== statusCycle.slice(0, got.length).join()).map(([id]) => id);
}

export const distinctDeliveries = (received: Received[]) => new Set(received.map((r) => String(r.headers['webhook-id']))).size;
