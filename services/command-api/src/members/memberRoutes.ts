import { z } from 'zod';
import { EmailAddress, MemberRole, newId } from '@feedback/events';
import { resolveProject, type HttpApp } from '@feedback/http';
import type { CommandDeps } from '../deps.js';
import { awaitReadModels, commandContext } from '../http.js';
import { executeAccountCommand } from '../accounts/accountCommands.js';

const CreateMemberBody = z.object({
  email: EmailAddress,
  name: z.string().trim().min(1).max(200),
  role: MemberRole,
  domainId: z.string().min(1).optional(),
});
const AssignBody = z.object({ memberId: z.string().min(1), domainId: z.string().min(1), assigned: z.boolean() });
const RemoveQuery = z.object({ memberId: z.string().min(1) });

/** Spec 4.1 and 3.4: members are created one per request, assigned, unassigned and removed. */
export function memberRoutes(app: HttpApp, deps: CommandDeps) {
  app.post('/members', { schema: { body: CreateMemberBody }, config: { scope: 'write' } }, async (request, reply) => {
    const { principal, context } = commandContext(request);
    const { email, name, role, domainId } = request.body;
    const project = domainId ? await resolveProject(deps.readStore, principal.accountId, domainId) : null;
    const memberId = newId();
    const { result, position } = await executeAccountCommand(
      deps,
      principal.accountId,
      { type: 'CreateMember', memberId, email, name, role, projectId: project?.projectId },
      context,
    );
    await awaitReadModels(deps, request, position);
    return reply.status(201).send({
      memberId,
      email: email.trim(),
      name,
      role,
      projectIds: result.projectIds ?? [],
      companyLoginApproved: false,
      ...(domainId ? { assigned: true } : {}),
    });
  });

  app.put('/members', { schema: { body: AssignBody }, config: { scope: 'write' } }, async (request) => {
    const { principal, context } = commandContext(request);
    const { memberId, domainId, assigned } = request.body;
    const project = await resolveProject(deps.readStore, principal.accountId, domainId);
    const { position } = await executeAccountCommand(deps, principal.accountId, { type: 'SetMemberAssignment', memberId, projectId: project.projectId, assigned }, context);
    await awaitReadModels(deps, request, position);
    return { memberId, domainId, assigned };
  });

  app.delete('/members', { schema: { querystring: RemoveQuery }, config: { scope: 'write' } }, async (request) => {
    const { principal, context } = commandContext(request);
    const { position } = await executeAccountCommand(deps, principal.accountId, { type: 'RemoveMember', memberId: request.query.memberId }, context);
    await awaitReadModels(deps, request, position);
    return { removed: true };
  });
}
