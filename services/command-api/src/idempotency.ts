import { createHash } from 'node:crypto';
import { streams } from '@feedback/events';
import { appendNew, WrongExpectedRevisionError } from '@feedback/event-store';
import { ApiError, type HttpApp } from '@feedback/http';
import { hashToken } from '@feedback/platform';
import type { CommandDeps } from './deps.js';

const inFlight = new Set<string>();

/**
 * `Idempotency-Key` on a POST: the first answer is recorded in the log; a retry with the same
 * key, token and path gets that answer again and appends nothing.
 */
export function idempotency(app: HttpApp, deps: CommandDeps) {
  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || typeof key !== 'string') return;
    if (key.length === 0 || key.length > 200) throw new ApiError(400, 'Idempotency-Key: must be 1 to 200 characters');
    const credential = String(request.headers['x-integration-token'] ?? (request.body as { token?: string } | undefined)?.token ?? '');
    const keyHash = createHash('sha256').update(`${hashToken(credential)}\u0000${request.url.split('?')[0]}\u0000${key}`).digest('hex');
    const recorded = (await deps.eventStore.readStream(streams.idempotency(keyHash))).find((e) => e.type === 'IdempotentResponseRecorded');
    if (recorded && recorded.type === 'IdempotentResponseRecorded') {
      return reply.status(recorded.data.statusCode).header('idempotent-replayed', 'true').send(recorded.data.body);
    }
    if (inFlight.has(keyHash)) throw new ApiError(409, 'A request with this Idempotency-Key is still in progress');
    inFlight.add(keyHash);
    request.idempotencyKeyHash = keyHash;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const keyHash = request.idempotencyKeyHash;
    if (!keyHash) return payload;
    try {
      if (reply.statusCode < 500 && typeof payload === 'string') {
        await appendNew(
          deps.eventStore,
          streams.idempotency(keyHash),
          [{ type: 'IdempotentResponseRecorded', data: { method: request.method, path: request.url.split('?')[0]!, statusCode: reply.statusCode, body: JSON.parse(payload) } }],
          { actor: { type: 'system', id: 'idempotency' }, correlationId: request.id },
        ).catch((error) => {
          if (!(error instanceof WrongExpectedRevisionError)) throw error;
        });
      }
    } finally {
      inFlight.delete(keyHash);
    }
    return payload;
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKeyHash?: string;
  }
}
