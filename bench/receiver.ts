import { createServer } from 'node:http';

// A webhook receiver in a process of its own: records when each delivery arrived, by the
// comment it is about, and answers 200 at once. GET /arrivals hands the record over, DELETE
// /arrivals starts a new one.
const arrivals: Array<[string, number]> = [];
const server = createServer((req, res) => {
  if (req.url === '/arrivals' && (req.method === 'GET' || req.method === 'DELETE')) {
    if (req.method === 'DELETE') arrivals.length = 0;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(arrivals));
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const at = Date.now(); // the clock the load generator reads too (bench/load.ts)
    const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { commentId?: string };
    arrivals.push([payload.commentId ?? '', at]);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
