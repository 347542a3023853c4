import { z } from 'zod';
import { CommentPriority, CommentStatus, streams } from '@feedback/events';
import { ApiError, authenticateRoutes, resolveProject, type HttpApp } from '@feedback/http';
import {
  commentView,
  type AccountDoc,
  type ClientDoc,
  type CommentDoc,
  type InboundTokenDoc,
  type MemberDoc,
  type ProjectDoc,
  type WebhookDoc,
} from '@feedback/projector';
import type { Where } from '@feedback/read-store';
import type { QueryDeps } from './deps.js';
import { deliveryRoutes } from './deliveryRoutes.js';
import { Pagination } from './pagination.js';
import { readModelTokenDirectory } from './tokenDirectory.js';

const DomainQuery = z.object({ domainId: z.string().min(1) });
const DomainParams = z.object({ domainId: z.string().min(1) });
const CommentParams = z.object({ commentId: z.string().min(1) });
const booleanString = z.enum(['true', 'false']).transform((v) => v === 'true');
const CommentsQuery = Pagination.extend({
  domainId: z.string().min(1).optional(),
  status: CommentStatus.optional(),
  priority: CommentPriority.optional(),
  archived: booleanString.optional(),
  include: z.enum(['metadata_full']).optional(),
});

const projectView = (p: ProjectDoc) => ({ projectId: p.projectId, publicKey: p.publicKey, domain: p.domain, name: p.name, createdAt: p.createdAt });
const memberView = (m: MemberDoc) => ({ memberId: m.memberId, email: m.email, name: m.name, role: m.role, owner: m.owner, companyLoginApproved: m.companyLoginApproved, createdAt: m.createdAt });
const clientView = (c: ClientDoc) => ({ email: c.email, name: c.name, approved: c.approved, createdAt: c.createdAt, updatedAt: c.updatedAt });

/** Every GET of /api/external, served from read models only. */
export function queryRoutes(app: HttpApp, deps: QueryDeps) {
  authenticateRoutes(app, readModelTokenDirectory(deps.readStore));
  const { readStore } = deps;
  deliveryRoutes(app, deps);

  app.get('/members', { schema: { querystring: z.object({ domainId: z.string().min(1).optional() }) }, config: { scope: 'read' } }, async (request) => {
    const principal = request.principal!;
    const project = request.query.domainId ? await resolveProject(readStore, principal.accountId, request.query.domainId) : null;
    const members: MemberDoc[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: MemberDoc[]; nextCursor: string | null } = await readStore.find<MemberDoc>('members', { where: { accountId: principal.accountId }, orderBy: { field: 'createdAt', direction: 'asc' }, limit: 200, cursor });
      members.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return {
      members: members.map((m) => ({
        ...memberView(m),
        ...(project ? { assigned: m.owner || m.projectIds.includes(project.projectId) } : {}),
      })),
    };
  });

  app.get('/clients', { schema: { querystring: DomainQuery.extend(Pagination.shape) }, config: { scope: 'read' } }, async (request) => {
    const principal = request.principal!;
    const project = await resolveProject(readStore, principal.accountId, request.query.domainId);
    const page = await readStore.find<ClientDoc>('clients', { where: { projectId: project.projectId }, orderBy: { field: 'createdAt', direction: 'asc' }, limit: request.query.limit, cursor: request.query.cursor });
    return { clients: page.items.map(clientView), nextCursor: page.nextCursor };
  });

  app.get('/comments', { schema: { querystring: CommentsQuery }, config: { scope: 'read' } }, async (request) => {
    const principal = request.principal!;
    const { domainId, status, priority, archived, include, limit, cursor } = request.query;
    const where: Where = domainId ? { projectId: (await resolveProject(readStore, principal.accountId, domainId)).projectId } : { accountId: principal.accountId };
    if (status) where.status = status;
    if (priority) where.priority = priority;
    if (archived !== undefined) where.archived = archived;
    const page = await readStore.find<CommentDoc>('comments', { where, orderBy: { field: 'id', direction: 'desc' }, limit, cursor });
    return { comments: page.items.map((doc) => commentView(doc, { fullMetadata: include === 'metadata_full' })), nextCursor: page.nextCursor };
  });

  async function ownComment(accountId: string, commentId: string) {
    const doc = await readStore.get<CommentDoc>('comments', commentId);
    if (!doc || doc.accountId !== accountId) throw new ApiError(404, 'Comment not found');
    return doc;
  }

  app.get('/comments/:commentId', { schema: { params: CommentParams }, config: { scope: 'read' } }, async (request) => {
    const principal = request.principal!;
    return commentView(await ownComment(principal.accountId, request.params.commentId), { fullMetadata: true });
  });

  app.get('/comments/:commentId/history', { schema: { params: CommentParams }, config: { scope: 'read' } }, async (request) => {
    const principal = request.principal!;
    const events = await deps.eventStore.readStream(streams.comment(request.params.commentId));
    const created = events[0];
    if (!created || created.type !== 'CommentCreated' || created.data.accountId !== principal.accountId) throw new ApiError(404, 'Comment not found');
    return {
      commentId: request.params.commentId,
      events: events.map((e) => ({
        eventId: e.id,
        type: e.type,
        revision: e.revision,
        occurredAt: e.occurredAt,
        actor: e.metadata.actor,
        correlationId: e.metadata.correlationId,
        schemaVersion: e.schemaVersion,
        data: e.data,
      })),
    };
  });

  app.get('/domains', { schema: { querystring: Pagination }, config: { scope: 'read' } }, async (request) => {
    const principal = request.principal!;
    const page = await readStore.find<ProjectDoc>('projects', { where: { accountId: principal.accountId }, orderBy: { field: 'createdAt', direction: 'asc' }, limit: request.query.limit, cursor: request.query.cursor });
    return { domains: page.items.map(projectView), nextCursor: page.nextCursor };
  });

  app.get('/domains/:domainId/settings', { schema: { params: DomainParams }, config: { scope: 'read' } }, async (request) => {
    const principal = request.principal!;
    const project = (await resolveProject(readStore, principal.accountId, request.params.domainId)) as unknown as ProjectDoc;
    return { ...projectView(project), settings: project.settings, updatedAt: project.updatedAt };
  });

  app.get('/domains/:domainId/webhooks', { schema: { params: DomainParams, querystring: Pagination }, config: { scope: 'settings' } }, async (request) => {
    const principal = request.principal!;
    const project = await resolveProject(readStore, principal.accountId, request.params.domainId);
    const page = await readStore.find<WebhookDoc>('webhooks', { where: { projectId: project.projectId }, orderBy: { field: 'createdAt', direction: 'asc' }, limit: request.query.limit, cursor: request.query.cursor });
    return {
      webhooks: page.items.map(({ id, name, event, url, method, authMode, enabled, createdAt, updatedAt }) => ({ webhookId: id, name, event, url, method, authMode, enabled, createdAt, updatedAt })),
      nextCursor: page.nextCursor,
    };
  });

  app.get('/domains/:domainId/inbound-tokens', { schema: { params: DomainParams, querystring: Pagination }, config: { scope: 'settings' } }, async (request) => {
    const principal = request.principal!;
    const project = await resolveProject(readStore, principal.accountId, request.params.domainId);
    const page = await readStore.find<InboundTokenDoc>('inboundTokens', { where: { projectId: project.projectId }, orderBy: { field: 'issuedAt', direction: 'asc' }, limit: request.query.limit, cursor: request.query.cursor });
    return { inboundTokens: page.items.map(({ id, actions, revoked, issuedAt }) => ({ tokenId: id, actions, revoked, issuedAt })), nextCursor: page.nextCursor };
  });

  app.get('/account', { config: { scope: 'read' } }, async (request) => {
    const principal = request.principal!;
    const account = await readStore.get<AccountDoc>('accounts', principal.accountId);
    if (!account) throw new ApiError(404, 'Account not found');
    const owner = await readStore.get<MemberDoc>('members', account.ownerMemberId);
    return {
      accountId: account.accountId,
      name: account.name,
      owner: owner ? { memberId: owner.memberId, email: owner.email, name: owner.name } : null,
      settings: { defaultProjectAccess: account.defaultProjectAccess, ssoRequired: account.ssoRequired },
      projectCount: await readStore.count('projects', { accountId: principal.accountId }),
      memberCount: await readStore.count('members', { accountId: principal.accountId }),
      token: { tokenId: principal.tokenId, scopes: principal.scopes },
      createdAt: account.createdAt,
    };
  });
}
