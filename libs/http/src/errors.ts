import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@feedback/domain';
import { InvalidCursorError } from '@feedback/read-store';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** An answer other than success, with the status and the `error` string the client sees. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const domainStatus = { invalid: 400, forbidden: 403, not_found: 404, conflict: 409 } as const;

/** Every failure leaves as `{ "error": "<message>" }` with a matching status. */
export function errorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = (error as FastifyError).validationContext ?? 'body';
    const messages = error.validation.map((issue) => {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      return `${field || context}: ${issue.message}`;
    });
    return reply.status(400).send({ error: messages.join('; ') });
  }
  if (error instanceof ApiError) return reply.status(error.statusCode).headers(error.headers).send({ error: error.message });
  if (error instanceof DomainError) return reply.status(domainStatus[error.kind]).send({ error: error.message });
  if (error instanceof InvalidCursorError) return reply.status(400).send({ error: error.message });
  const statusCode = (error as FastifyError).statusCode ?? 500;
  if (statusCode >= 500) {
    request.log.error({ err: error }, 'request failed');
    return reply.status(statusCode).send({ error: 'Internal server error' });
  }
  const code = (error as FastifyError).code;
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError)
    return reply.status(400).send({ error: `Malformed JSON body: ${error.message}` });
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send({ error: 'Request body is too large' });
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.status(415).send({ error: 'Content-Type must be application/json' });
  return reply.status(statusCode).send({ error: error.message });
}
