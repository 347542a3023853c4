import { z } from 'zod';
import { projectDecider } from '@feedback/domain';
import { streams } from '@feedback/events';
import { handleCommand } from '@feedback/event-store';
import { ApiError, resolveProject, type HttpApp } from '@feedback/http';
import { DELIVERIES, replayed, type Delivery } from '@feedback/webhook-relay';
import type { CommandDeps } from '../deps.js';
import { commandContext } from '../http.js';

const WebhookParams = z.object({ domainId: z.string().min(1), webhookId: z.string().min(1) });
const RetryParams = WebhookParams.extend({ deliveryId: z.string().min(1) });
const ReplayBody = z
  .object({ from: z.iso.datetime({ offset: true }), to: z.iso.datetime({ offset: true }) })
  .refine((range) => Date.parse(range.from) <= Date.parse(range.to), { message: 'must not be before from', path: ['to'] });

/**
 * Asking the relay to send again. Both are recorded as events on the project, which the relay
 * consumes like any other; so they answer 202: the sending happens after the answer.
 */
export function deliveryRoutes(app: HttpApp, deps: CommandDeps) {
  app.post('/domains/:domainId/webhooks/:webhookId/deliveries/:deliveryId/retry', { schema: { params: RetryParams }, config: { scope: 'settings' } }, async (request, reply) => {
    const { principal, context } = commandContext(request);
    const { webhookId, deliveryId } = request.params;
    const project = await resolveProject(deps.readStore, principal.accountId, request.params.domainId);
    const delivery = await deps.relayStore.get<Delivery>(DELIVERIES, deliveryId);
    if (!delivery || delivery.webhookId !== webhookId || delivery.projectId !== project.projectId) throw new ApiError(404, 'Delivery not found');
    const command = { type: 'RequestDeliveryRetry', projectId: project.projectId, webhookId, deliveryId } as const;
    await handleCommand(deps.eventStore, streams.project(project.projectId), projectDecider, command, context);
    return reply.status(202).send({ deliveryId, webhookId, queued: true });
  });

  app.post('/domains/:domainId/webhooks/:webhookId/replay', { schema: { params: WebhookParams, body: ReplayBody }, config: { scope: 'settings' } }, async (request, reply) => {
    const { principal, context } = commandContext(request);
    const { webhookId } = request.params;
    const from = new Date(request.body.from).toISOString();
    const to = new Date(request.body.to).toISOString();
    const project = await resolveProject(deps.readStore, principal.accountId, request.params.domainId);
    const command = { type: 'RequestWebhookReplay', projectId: project.projectId, webhookId, from, to } as const;
    await handleCommand(deps.eventStore, streams.project(project.projectId), projectDecider, command, context);
    const deliveries = await deps.relayStore.count(DELIVERIES, replayed(webhookId, from, to));
    return reply.status(202).send({ webhookId, from, to, deliveries });
  });
}
