import { z } from 'zod';
import { ApiError, resolveProject, type HttpApp } from '@feedback/http';
import type { WebhookDoc } from '@feedback/projector';
import { DELIVERIES, type Delivery } from '@feedback/webhook-relay';
import type { QueryDeps } from './deps.js';
import { Pagination } from './pagination.js';

const WebhookParams = z.object({ domainId: z.string().min(1), webhookId: z.string().min(1) });
const DeliveryParams = WebhookParams.extend({ deliveryId: z.string().min(1) });
const DeliveriesQuery = Pagination.extend({ status: z.enum(['pending', 'delivered', 'dead', 'cancelled']).optional() });

const deliveryView = (d: Delivery) => ({
  deliveryId: d.id,
  eventType: d.eventType,
  commentId: d.commentId,
  status: d.status,
  reason: d.reason,
  eventAt: d.eventAt,
  createdAt: d.createdAt,
  nextAttemptAt: d.nextAttemptAt === null ? null : new Date(d.nextAttemptAt).toISOString(),
  attempts: d.attempts,
});

/** The delivery log of a webhook, from the relay's own store (settings scope). */
export function deliveryRoutes(app: HttpApp, deps: QueryDeps) {
  const { readStore, relayStore } = deps;

  async function webhookOf(accountId: string, params: z.infer<typeof WebhookParams>) {
    const project = await resolveProject(readStore, accountId, params.domainId);
    const webhook = await readStore.get<WebhookDoc>('webhooks', params.webhookId);
    if (!webhook || webhook.projectId !== project.projectId) throw new ApiError(404, 'Webhook not found');
    return webhook;
  }

  app.get('/domains/:domainId/webhooks/:webhookId/deliveries', { schema: { params: WebhookParams, querystring: DeliveriesQuery }, config: { scope: 'settings' } }, async (request) => {
    const webhook = await webhookOf(request.principal!.accountId, request.params);
    const { status, limit, cursor } = request.query;
    const page = await relayStore.find<Delivery>(DELIVERIES, {
      where: { webhookId: webhook.id, ...(status ? { status } : {}) },
      orderBy: { field: '_position', direction: 'desc' },
      limit,
      cursor,
    });
    return { deliveries: page.items.map(deliveryView), nextCursor: page.nextCursor };
  });

  app.get('/domains/:domainId/webhooks/:webhookId/deliveries/:deliveryId', { schema: { params: DeliveryParams }, config: { scope: 'settings' } }, async (request) => {
    const webhook = await webhookOf(request.principal!.accountId, request.params);
    const delivery = await relayStore.get<Delivery>(DELIVERIES, request.params.deliveryId);
    if (!delivery || delivery.webhookId !== webhook.id) throw new ApiError(404, 'Delivery not found');
    return { ...deliveryView(delivery), payload: JSON.parse(delivery.body) as unknown };
  });
}
