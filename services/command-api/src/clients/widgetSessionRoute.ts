import { z } from 'zod';
import { clientLoginTokenState, findClient } from '@feedback/domain';
import { streams } from '@feedback/events';
import { ApiError, type HttpApp, type ProjectRef } from '@feedback/http';
import { hashToken } from '@feedback/platform';
import type { CommandDeps } from '../deps.js';
import { loadProject } from '../projects/projectCommands.js';

const SessionQuery = z.object({ 'service-token': z.string().min(1).optional() });

/**
 * GET {app_url}/api/widget/session: what the widget asks with a client login token. Valid while
 * unexpired and while the client stays approved under the same credential epoch, so revoking
 * or removing the client ends every token it had at once.
 */
export function widgetSessionRoute(app: HttpApp, deps: CommandDeps) {
  app.get('/api/widget/session', { schema: { querystring: SessionQuery } }, async (request) => {
    const bearer = request.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
    const token = request.query['service-token'] ?? bearer;
    const invalidToken = new ApiError(401, 'Invalid or expired client token', { 'www-authenticate': 'Bearer' });
    if (!token) throw invalidToken;
    const issued = clientLoginTokenState(await deps.eventStore.readStream(streams.clientLoginToken(hashToken(token))));
    if (!issued || Date.parse(issued.expiresAt) <= Date.now()) throw invalidToken;
    const state = await loadProject(deps, issued.projectId);
    const client = findClient(state, issued.email);
    if (!client || !client.approved || client.epoch !== issued.clientEpoch) throw invalidToken;
    const project = await deps.readStore.get<ProjectRef>('projects', issued.projectId);
    return {
      client: { email: client.email, name: client.name },
      project: { projectId: issued.projectId, publicKey: project?.publicKey ?? null, domain: project?.domain ?? null, name: state.name ?? project?.name ?? null },
      expiresAt: issued.expiresAt,
    };
  });
}
