import { z } from 'zod';
import { findClient, CLIENT_LOGIN_TOKEN_TTL_MS } from '@feedback/domain';
import { EmailAddress, streams } from '@feedback/events';
import { appendNew } from '@feedback/event-store';
import { ApiError, resolveProject, type HttpApp } from '@feedback/http';
import { hashToken, newToken } from '@feedback/platform';
import type { CommandDeps } from '../deps.js';
import { awaitReadModels, commandContext } from '../http.js';
import { executeProjectCommand, loadProject } from '../projects/projectCommands.js';

const Email = EmailAddress;
const AddClientBody = z.object({
  domainId: z.string().min(1),
  email: Email,
  name: z.string().trim().min(1).max(200),
  autoApprove: z.boolean().default(false),
});
const ApprovalBody = z.object({ domainId: z.string().min(1), email: Email, approved: z.boolean() });
const RemoveQuery = z.object({ domainId: z.string().min(1), email: Email });
const ClientTokenBody = z.object({ domainId: z.string().min(1), email: Email });

/** Spec 4.2, 3.3 and 4.3: clients of a project, their approval, and their widget login tokens. */
export function clientRoutes(app: HttpApp, deps: CommandDeps) {
  app.post('/clients', { schema: { body: AddClientBody }, config: { scope: 'write' } }, async (request, reply) => {
    const { principal, context } = commandContext(request);
    const { domainId, email, name, autoApprove } = request.body;
    const project = await resolveProject(deps.readStore, principal.accountId, domainId);
    const { result, position } = await executeProjectCommand(deps, { type: 'AddClient', projectId: project.projectId, email, name, autoApprove }, context);
    await awaitReadModels(deps, request, position);
    const client = result.client!;
    return reply.status(result.created ? 201 : 200).send({ email: client.email, name: client.name, approved: client.approved });
  });

  app.put('/clients', { schema: { body: ApprovalBody }, config: { scope: 'write' } }, async (request) => {
    const { principal, context } = commandContext(request);
    const { domainId, email, approved } = request.body;
    const project = await resolveProject(deps.readStore, principal.accountId, domainId);
    const { result, position } = await executeProjectCommand(deps, { type: 'SetClientApproval', projectId: project.projectId, email, approved }, context);
    await awaitReadModels(deps, request, position);
    return { email: result.client!.email, approved };
  });

  app.delete('/clients', { schema: { querystring: RemoveQuery }, config: { scope: 'write' } }, async (request) => {
    const { principal, context } = commandContext(request);
    const project = await resolveProject(deps.readStore, principal.accountId, request.query.domainId);
    const { position } = await executeProjectCommand(deps, { type: 'RemoveClient', projectId: project.projectId, email: request.query.email }, context);
    await awaitReadModels(deps, request, position);
    return { removed: true };
  });

  app.post('/client-token', { schema: { body: ClientTokenBody }, config: { scope: 'write' } }, async (request) => {
    const { principal, context } = commandContext(request);
    const project = await resolveProject(deps.readStore, principal.accountId, request.body.domainId);
    const state = await loadProject(deps, project.projectId);
    const client = findClient(state, request.body.email);
    if (!client) throw new ApiError(404, 'Client not found');
    if (!client.approved) throw new ApiError(403, 'Client is not approved');
    const token = newToken('sct');
    const tokenHash = hashToken(token);
    const expiresAt = new Date(Date.now() + CLIENT_LOGIN_TOKEN_TTL_MS).toISOString();
    await appendNew(deps.eventStore, streams.clientLoginToken(tokenHash), [
      { type: 'ClientLoginTokenIssued', data: { projectId: project.projectId, email: client.email, tokenHash, clientEpoch: client.epoch, expiresAt } },
    ], context);
    return { token, email: client.email, name: client.name };
  });
}
