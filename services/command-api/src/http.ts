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
 * (the write has succeeded either way). `X-Consistency: eventual` skips that wait, but not the
 * limit on unprojected writes: writers that outpace the projector would otherwise make every
 * read staler for as long as they keep it up; past the limit they go at the projector's pace.
 */
export async function awaitReadModels(deps: CommandDeps, request: FastifyRequest, position: number | null): Promise<void> {
  if (position === null) return;
  const eventual = request.headers['x-consistency'] === 'eventual';
  const timeoutMs = deps.config.READ_YOUR_WRITES_TIMEOUT_MS;
  const caughtUp = eventual ? await deps.progress.keepWithin(position, deps.config.UNPROJECTED_WRITES_LIMIT, timeoutMs) : await deps.progress.waitFor(position, timeoutMs);
  if (!caughtUp) request.log.warn({ position, eventual }, 'read models still behind after the wait');
}
