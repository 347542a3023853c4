import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Floors: what a bare fastify route costs when it does only the part of a path that no design
// can remove. GET /page answers the service's own page-of-50 body, fixed (the bytes alone);
// POST /api/external/comments/create makes one row durable before answering (WAL,
// synchronous=FULL, the requests of one event-loop turn committed together, as the event store
// does). A target above its floor is out of reach on this machine whatever the service does.
const page = readFileSync(process.env.FLOOR_PAGE_FILE!, 'utf8');
const db = new Database(join(process.env.FLOOR_DATA_DIR!, 'floor.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec('CREATE TABLE IF NOT EXISTS events (position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, data TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO events (id, data) VALUES (?, ?)');
type Waiting = { data: string; resolve: (position: number) => void };
let group: Waiting[] = [];
const commit = db.transaction((members: Waiting[]) => members.map((m) => Number(insert.run(crypto.randomUUID(), m.data).lastInsertRowid)));
const flush = () => {
  const members = group;
  group = [];
  commit.immediate(members).forEach((position, i) => members[i]!.resolve(position));
};

const app = Fastify({ logger: false });
app.get('/page', async (_request, reply) => reply.type('application/json; charset=utf-8').send(page));
app.post('/api/external/comments/create', async (request, reply) => {
  const position = await new Promise<number>((resolve) => {
    if (group.push({ data: JSON.stringify(request.body), resolve }) === 1) setImmediate(flush);
  });
  return reply.status(201).send({ position });
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
