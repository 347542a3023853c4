import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

/** What the receiver answers: a status (and headers), or a wait that outlasts the relay's timeout. */
export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number };

/**
 * A real HTTP endpoint on loopback standing in for a customer's webhook receiver. It records
 * every request and answers from `answer` (200 unless told otherwise).
 */
export async function startReceiver(t: Test, answer: (request: Received, index: number) => Answer = () => ({ status: 200 })) {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        // not JSON: left as the raw body
      }
      const request: Received = { method: req.method!, path: req.url!, headers: req.headers, body, json, at: Date.now() };
      const index = received.length;
      received.push(request);
      for (const wake of waiters) wake();
      const reply = answer(request, index);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end('{}');
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));

  return {
    url,
    received,
    /** Resolves once `count` requests matching `filter` arrived; fails the wait after `timeoutMs`. */
    async waitFor(count: number, filter: (r: Received) => boolean = () => true, timeoutMs = 20_000): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter(filter);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) throw new Error(`receiver got ${matching.length} of ${count} expected requests within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, 100);
          function done() {
            clearTimeout(timer);
            waiters.delete(done);
            resolve();
          }
          waiters.add(done);
        });
      }
    },
  };
}
