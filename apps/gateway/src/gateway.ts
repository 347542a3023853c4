import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '@feedback/platform';

export interface GatewayOptions {
  commandUrl: string;
  queryUrls: string[];
  logger: Logger;
  timeoutMs?: number;
}

const READ_PREFIX = '/api/external/';

/**
 * One base URL for clients: GET (and HEAD) under /api/external go to the query API instances,
 * round robin; everything else goes to the command API. A read whose instance cannot be reached
 * is tried on the next one, so losing a query-api instance fails no read.
 */
export function createGateway(options: GatewayOptions): Server {
  const { logger } = options;
  let next = 0;

  function forward(req: IncomingMessage, res: ServerResponse, upstream: string, body: Buffer | null, onUnreachable: (error: Error) => void) {
    const target = new URL(req.url ?? '/', upstream);
    const headers = { ...req.headers, host: target.host, 'x-forwarded-for': req.socket.remoteAddress ?? '' };
    const proxied = request(target, { method: req.method, headers, timeout: options.timeoutMs ?? 30_000 }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    proxied.on('timeout', () => proxied.destroy(new Error('upstream timed out')));
    proxied.on('error', (error) => {
      if (res.headersSent) return void res.destroy(error);
      onUnreachable(error);
    });
    if (body) proxied.end(body);
    else req.pipe(proxied);
  }

  const fail = (res: ServerResponse, error: Error) => {
    logger.warn({ err: error }, 'no upstream answered');
    res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Bad gateway' }));
  };

  return createServer((req, res) => {
    if (req.url === '/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', service: 'gateway' }));
    const isRead = (req.method === 'GET' || req.method === 'HEAD') && (req.url ?? '').startsWith(READ_PREFIX);
    if (!isRead) return forward(req, res, options.commandUrl, null, (error) => fail(res, error));
    const start = next++ % options.queryUrls.length;
    const attempt = (tried: number) =>
      forward(req, res, options.queryUrls[(start + tried) % options.queryUrls.length]!, Buffer.alloc(0), (error) =>
        tried + 1 < options.queryUrls.length ? attempt(tried + 1) : fail(res, error),
      );
    attempt(0);
  });
}
