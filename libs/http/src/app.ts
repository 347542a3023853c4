import Fastify, { LogController, type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { newId } from '@feedback/events';
import { httpRequests, metrics, type Logger } from '@feedback/platform';
import { integrationTokenHash } from './auth.js';
import { errorHandler } from './errors.js';

export interface HttpAppOptions {
  logger: Logger;
  bodyLimit: number;
  rateLimitPerMinute: number;
}

export type HttpApp = FastifyInstance<any, any, any, Logger, ZodTypeProvider>;

/**
 * The fastify instance every service builds on: zod validation, JSON errors, a correlation id
 * per request (from X-Correlation-Id or new), and a rate limit per integration token.
 */
export async function createHttpApp(options: HttpAppOptions): Promise<HttpApp> {
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit,
    genReqId: (request) => {
      const given = request.headers['x-correlation-id'];
      return typeof given === 'string' && /^[\w.:-]{1,100}$/.test(given) ? given : newId();
    },
    // One line per request is logged in onResponse below, with the correlation id as its label.
    logController: new LogController({ requestIdLogLabel: 'correlationId', disableRequestLogging: true }),
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.get('/metrics', async (_request, reply) => reply.type(metrics.contentType).send(await metrics.metrics()));
  app.setNotFoundHandler((request, reply) => reply.status(404).send({ error: `Route ${request.method} ${request.url.split('?')[0]} not found` }));
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-correlation-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ method: request.method, url: request.url.split('?')[0], statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    httpRequests.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  await app.register(rateLimit, {
    global: true,
    max: options.rateLimitPerMinute,
    timeWindow: 60_000,
    allowList: (request) => request.url === '/health' || request.url === '/metrics',
    keyGenerator: (request) => {
      const tokenHash = integrationTokenHash(request);
      return tokenHash ? `token:${tokenHash}` : `ip:${request.ip}`;
    },
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error(`Rate limit exceeded: at most ${context.max} requests per minute; retry in ${context.after}`), { statusCode: 429 }),
  });
  return app;
}
