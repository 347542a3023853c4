import type { FastifyRequest } from 'fastify';
import type { CommandContext } from '@feedback/event-store';
import { principalOf, type Principal } from '@feedback/http';
import type { CommandDeps } from './deps.js';

/** The authenticated caller, named as the actor of what the request causes. */
export function commandContext(request: FastifyRequest): { principal: Principal; context: CommandContext } {
  const principal = principalOf(request);
  return {
    principal,
    context: { actor: { type: 'integrationToken', id: principal.tokenId, accountId: principal.accountId }, correlationId: request.id },
  };
}

/**
 * Read-your-writes: answer once the read models include the write, or after the bounded wait
 * (the write has succeeded either way). `X-Consistency: eventual` skips the wait.
 */
export async function awaitReadModels(deps: CommandDeps, request: FastifyRequest, position: number | null): Promise<void> {
  if (position === null || request.headers['x-consistency'] === 'eventual') return;
  const caughtUp = await deps.progress.waitFor(position, deps.config.READ_YOUR_WRITES_TIMEOUT_MS);
  if (!caughtUp) request.log.warn({ position }, 'read models still behind after the read-your-writes wait');
}
