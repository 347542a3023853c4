import { z } from 'zod';
import { InboundAction, WebhookAuth, WebhookTrigger } from '@feedback/events';
import { ApiError, resolveProject, type HttpApp } from '@feedback/http';
import type { CommandDeps } from '../deps.js';
import { awaitReadModels, commandContext } from '../http.js';
import { createProject, createWebhook, deleteWebhook, issueInboundToken, revokeInboundToken, updateProjectSettings, updateWebhook } from './projectCommands.js';

const DomainParams = z.object({ domainId: z.string().min(1) });
const WebhookParams = DomainParams.extend({ webhookId: z.string().min(1) });
const TokenParams = DomainParams.extend({ tokenId: z.string().min(1) });

const CreateProjectBody = z.object({ domain: z.string().trim().min(1).max(2_000), name: z.string().trim().min(1).max(200).optional() });
const SettingsBody = z
  .object({ name: z.string().trim().min(1).max(200).optional(), settings: z.record(z.string(), z.unknown()).optional() })
  .refine((b) => b.name !== undefined || b.settings !== undefined, { message: 'name or settings is required' });
const WebhookBody = z.object({
  name: z.string().trim().min(1).max(200),
  event: WebhookTrigger,
  url: z.url().max(2_000),
  method: z.enum(['POST', 'PUT']).default('POST'),
  auth: WebhookAuth.default({ mode: 'none' }),
  enabled: z.boolean().default(true),
});
const WebhookPatch = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  event: WebhookTrigger.optional(),
  url: z.url().max(2_000).optional(),
  method: z.enum(['POST', 'PUT']).optional(),
  auth: WebhookAuth.optional(),
  enabled: z.boolean().optional(),
});
const InboundTokenBody = z.object({ actions: z.array(InboundAction).min(1) });

export const webhookView = (w: { webhookId: string; name: string; event: string; url: string; method: string; auth: { mode: string }; enabled: boolean }) => ({
  webhookId: w.webhookId,
  name: w.name,
  event: w.event,
  url: w.url,
  method: w.method,
  authMode: w.auth.mode,
  enabled: w.enabled,
});

/** Project settings with the `settings` scope: projects, their webhooks and inbound tokens. */
export function projectRoutes(app: HttpApp, deps: CommandDeps) {
  app.post('/domains', { schema: { body: CreateProjectBody }, config: { scope: 'settings' } }, async (request, reply) => {
    const { principal, context } = commandContext(request);
    const { project, position } = await createProject(deps, principal.accountId, request.body, context);
    await awaitReadModels(deps, request, position);
    return reply.status(201).send({ ...project, settings: {} });
  });

  app.put('/domains/:domainId/settings', { schema: { params: DomainParams, body: SettingsBody }, config: { scope: 'settings' } }, async (request) => {
    const { principal, context } = commandContext(request);
    const project = await resolveProject(deps.readStore, principal.accountId, request.params.domainId);
    const { position } = await updateProjectSettings(deps, project.projectId, request.body, context);
    await awaitReadModels(deps, request, position);
    return {
      projectId: project.projectId,
      publicKey: project.publicKey,
      domain: project.domain,
      name: request.body.name ?? project.name,
      settings: { ...project.settings, ...request.body.settings },
    };
  });

  app.post('/domains/:domainId/webhooks', { schema: { params: DomainParams, body: WebhookBody }, config: { scope: 'settings' } }, async (request, reply) => {
    const { principal, context } = commandContext(request);
    const project = await resolveProject(deps.readStore, principal.accountId, request.params.domainId);
    const { webhook, position } = await createWebhook(deps, project.projectId, request.body, context);
    await awaitReadModels(deps, request, position);
    // The signing secret is shown here, once.
    return reply.status(201).send({ ...webhookView(webhook), signingSecret: webhook.signingSecret });
  });

  app.put('/domains/:domainId/webhooks/:webhookId', { schema: { params: WebhookParams, body: WebhookPatch }, config: { scope: 'settings' } }, async (request) => {
    const { principal, context } = commandContext(request);
    const project = await resolveProject(deps.readStore, principal.accountId, request.params.domainId);
    const { webhook, position } = await updateWebhook(deps, project.projectId, request.params.webhookId, request.body, context);
    await awaitReadModels(deps, request, position);
    return webhookView(webhook);
  });

  app.delete('/domains/:domainId/webhooks/:webhookId', { schema: { params: WebhookParams }, config: { scope: 'settings' } }, async (request) => {
    const { principal, context } = commandContext(request);
    const project = await resolveProject(deps.readStore, principal.accountId, request.params.domainId);
    const { position } = await deleteWebhook(deps, project.projectId, request.params.webhookId, context);
    await awaitReadModels(deps, request, position);
    return { removed: true };
  });

  app.post('/domains/:domainId/inbound-tokens', { schema: { params: DomainParams, body: InboundTokenBody }, config: { scope: 'settings' } }, async (request, reply) => {
    const { principal, context } = commandContext(request);
    const project = await resolveProject(deps.readStore, principal.accountId, request.params.domainId);
    const { tokenId, token, position } = await issueInboundToken(deps, principal.accountId, project.projectId, request.body.actions, context);
    await awaitReadModels(deps, request, position);
    return reply.status(201).send({ tokenId, token, projectId: project.projectId, actions: [...new Set(request.body.actions)] });
  });

  app.delete('/domains/:domainId/inbound-tokens/:tokenId', { schema: { params: TokenParams }, config: { scope: 'settings' } }, async (request) => {
    const { principal, context } = commandContext(request);
    const project = await resolveProject(deps.readStore, principal.accountId, request.params.domainId);
    const doc = await deps.readStore.get<{ id: string; tokenHash: string; projectId: string | null }>('inboundTokens', request.params.tokenId);
    if (!doc || doc.projectId !== project.projectId) throw new ApiError(404, 'Inbound token not found');
    const { position } = await revokeInboundToken(deps, doc.tokenHash, { accountId: principal.accountId, projectId: project.projectId }, context);
    await awaitReadModels(deps, request, position);
    return { revoked: true };
  });
}
