import Fastify from 'fastify';

// The ceiling: a bare fastify route with a fixed JSON body, no plugins, no logging. Every HTTP
// figure of the service is also reported as a share of what this serves on the same machine.
const app = Fastify({ logger: false });
const body = { ok: true, service: 'ceiling' };
app.get('/', async () => body);
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
