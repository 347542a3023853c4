import { streamCategory, streamId, type StoredEvent } from '@feedback/events';
import type { Change, ReadStore } from '@feedback/read-store';
import type { BusBatch, Commit } from './bus/eventBus.js';
import { DELIVERIES, deliveryId, laneOf, replayed, type Delivery } from './deliveries.js';
import type { Dispatcher } from './dispatcher.js';
import { commentPayload, replyPayload, statusUpdatePayload, type Payload } from './payloads.js';
import { emptyProject, evolveComment, evolveProject, projectOf, type RelayComment, type RelayProject } from './relayState.js';

type Request = { deliveryIds: string[] } | { webhookId: string; from: string; to: string };

/**
 * Turns consumed commits into relay state and deliveries. Safe to run twice on the same batch
 * (the bus delivers at least once): documents remember the last position applied to them,
 * and a delivery's id comes from its event and webhook.
 */
export function createIntake(store: ReadStore, dispatcher: Dispatcher) {
  async function load(commits: Commit[]) {
    const commentIds = new Set<string>();
    const projectIds = new Set<string>();
    for (const { events } of commits)
      for (const event of events) {
        if (streamCategory(event.stream) === 'comment') commentIds.add(streamId(event.stream));
        const projectId = projectOf(event);
        if (projectId) projectIds.add(projectId);
      }
    const comments = (await store.getMany('comments', [...commentIds])) as unknown as Map<string, RelayComment>;
    for (const comment of comments.values()) projectIds.add(comment.projectId);
    const projects = (await store.getMany('projects', [...projectIds])) as unknown as Map<string, RelayProject>;
    return { comments, projects };
  }

  return async function handle(batch: BusBatch): Promise<void> {
    const { comments, projects } = await load(batch.commits);
    const changedComments = new Set<string>();
    const changedProjects = new Set<string>();
    const candidates: Delivery[] = [];
    const requests: Request[] = [];

    const deliver = (payload: Payload, source: StoredEvent, comment: RelayComment) => {
      const project = projects.get(comment.projectId);
      if (!project) return;
      const body = JSON.stringify(payload);
      for (const webhook of Object.values(project.webhooks)) {
        if (webhook.event !== payload.type || !webhook.enabled) continue;
        candidates.push({
          id: deliveryId(source.id, webhook.webhookId),
          _position: source.position,
          webhookId: webhook.webhookId,
          projectId: project.id,
          accountId: project.accountId,
          partition: batch.partition,
          lane: laneOf(webhook.webhookId, comment.id),
          eventId: source.id,
          correlationId: source.metadata.correlationId,
          eventType: payload.type,
          commentId: comment.id,
          eventAt: source.occurredAt,
          createdAt: new Date().toISOString(),
          body,
          status: 'pending',
          attempts: [],
          retryStep: 0,
          nextAttemptAt: Date.now(),
          reason: null,
        });
      }
    };

    for (const { events } of batch.commits) {
      const last = events[events.length - 1]!;
      if (streamCategory(last.stream) === 'comment') {
        const id = streamId(last.stream);
        const before = comments.get(id) ?? null;
        if (before && before._position >= last.position) continue; // consumed before a restart
        let comment = before;
        for (const event of events) {
          comment = evolveComment(comment, event);
          if (!comment) continue;
          comment = { ...comment, _position: event.position };
          if (event.type === 'CommentCreated') deliver(commentPayload(event, comment, projects.get(comment.projectId) ?? emptyProject(comment.projectId)), event, comment);
          if (event.type === 'CommentReplied') deliver(replyPayload(event, comment), event, comment);
        }
        if (!comment) continue;
        const statusUpdate = before && statusUpdatePayload(before, comment, last);
        if (statusUpdate) deliver(statusUpdate, last, comment);
        comments.set(id, comment);
        changedComments.add(id);
        continue;
      }
      for (const event of events) {
        const projectId = projectOf(event);
        if (!projectId) continue;
        const project = projects.get(projectId) ?? emptyProject(projectId);
        if (project._position >= event.position) continue;
        if (event.type === 'WebhookDeliveryRetryRequested') requests.push({ deliveryIds: [event.data.deliveryId] });
        if (event.type === 'WebhookReplayRequested') requests.push({ webhookId: event.data.webhookId, from: event.data.from, to: event.data.to });
        projects.set(projectId, { ...evolveProject(project, event), _position: event.position });
        changedProjects.add(projectId);
      }
    }

    // Deliveries first, state last: a crash in between replays into the same delivery ids.
    const existing = await store.getMany(DELIVERIES, candidates.map((d) => d.id));
    const fresh = candidates.filter((d) => !existing.has(d.id));
    if (fresh.length) {
      await store.commit(fresh.map((doc) => ({ collection: DELIVERIES, id: doc.id, doc })));
      dispatcher.enqueue(fresh);
    }
    for (const request of requests) await dispatcher.requeue('deliveryIds' in request ? request.deliveryIds : await deliveriesBetween(store, request));
    const state: Change[] = [
      ...[...changedProjects].map((id) => ({ collection: 'projects', id, doc: projects.get(id)! })),
      ...[...changedComments].map((id) => ({ collection: 'comments', id, doc: comments.get(id)! })),
    ];
    if (state.length) await store.commit(state);
  };
}

async function deliveriesBetween(store: ReadStore, range: { webhookId: string; from: string; to: string }): Promise<string[]> {
  const ids: string[] = [];
  const where = replayed(range.webhookId, range.from, range.to);
  let cursor: string | null = null;
  do {
    const page: { items: Delivery[]; nextCursor: string | null } = await store.find<Delivery>(DELIVERIES, { where, orderBy: { field: '_position', direction: 'asc' }, limit: 500, cursor });
    ids.push(...page.items.map((d) => d.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}
