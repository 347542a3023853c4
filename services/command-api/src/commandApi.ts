import { authenticateRoutes, type HttpApp } from '@feedback/http';
import { streamTokenDirectory } from './tokenDirectory.js';
import type { CommandDeps } from './deps.js';
import { clientRoutes } from './clients/clientRoutes.js';
import { widgetSessionRoute } from './clients/widgetSessionRoute.js';
import { commentRoutes } from './comments/commentRoutes.js';
import { idempotency } from './idempotency.js';
import { inboundActionRoute } from './inbound/inboundActionRoute.js';
import { memberRoutes } from './members/memberRoutes.js';
import { projectRoutes } from './projects/projectRoutes.js';
import { deliveryRoutes } from './webhooks/deliveryRoutes.js';

export const API_PREFIX = '/api/external';

/** Every write of the service. Requests enter here; each feature's routes turn them into commands. */
export async function registerCommandApi(app: HttpApp, deps: CommandDeps) {
  await app.register(async (scoped) => {
    const api = scoped as unknown as HttpApp;
    idempotency(api, deps);
    await api.register(
      async (external) => {
        const routes = external as unknown as HttpApp;
        authenticateRoutes(routes, streamTokenDirectory(deps));
        memberRoutes(routes, deps);
        clientRoutes(routes, deps);
        commentRoutes(routes, deps);
        projectRoutes(routes, deps);
        deliveryRoutes(routes, deps);
      },
      { prefix: API_PREFIX },
    );
    inboundActionRoute(api, deps);
    widgetSessionRoute(api, deps);
  });
}
