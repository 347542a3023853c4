import t from 'tap';
import { runTs } from './support/processes.js';
import { startServer } from './support/server.js';

t.test('projections rebuild replays into fresh storage and switches readers while the service answers', async (t) => {
  const server = await startServer(t, { RATE_LIMIT_PER_MINUTE: '1000000' });
  const ws = await server.workspace();
  const create = (text: string, headers: Record<string, string> = {}) =>
    server.call('POST', '/comments/create', { token: ws.token, body: { domainId: ws.publicKey, text, url: `${ws.domain}/page` }, headers });
  for (let i = 0; i < 150; i++) await create(`before ${i}`, { 'x-consistency': 'eventual' });
  const member = await server.call('POST', '/members', { token: ws.token, body: { email: 'kept@rebuild.test', name: 'Kept', role: 'team' } });
  const before = await server.call('GET', `/comments?domainId=${ws.publicKey}&limit=200`, { token: ws.token });
  t.equal(before.body.comments.length, 150);

  let running = true;
  const readStatuses: number[] = [];
  let written = 0;
  const traffic = (async () => {
    while (running) {
      readStatuses.push((await server.call('GET', `/comments/${before.body.comments[0].id}`, { token: ws.token })).status);
      readStatuses.push((await server.call('GET', '/members', { token: ws.token })).status);
      if ((await create(`during ${written}`)).status === 201) written++;
    }
  })();
  const run = await runTs('apps/cli/src/main.ts', ['projections', 'rebuild'], { DATA_DIR: server.config.DATA_DIR, LOG_LEVEL: 'warn' });
  running = false;
  await traffic;

  t.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  t.match(result, { rebuilt: true, generation: /^g/, previousGeneration: 'rm', events: Number, eventsPerSecond: Number });
  t.match(run.stderr, /rebuilding read models: \d+\/\d+ events \(100%\), \d+ events\/s/, 'progress: events done, rate, time left');
  t.ok(readStatuses.length > 0 && readStatuses.every((s) => s === 200), `every read during the rebuild answered 200 (${readStatuses.length} reads)`);
  t.ok(written > 0, `writes kept working during the rebuild (${written})`);

  t.equal(await server.deps.readStore.getActiveGeneration(), result.generation, 'readers switched');
  const fresh = await create('after the switch');
  const seen = await server.call('GET', `/comments/${fresh.body.id}`, { token: ws.token });
  t.equal(seen.status, 200, 'the live projector continues on the new generation (read-your-writes)');
  const ids = new Set<string>();
  let cursor: string | null = null;
  do {
    const page: any = await server.call('GET', `/comments?domainId=${ws.publicKey}&limit=200${cursor ? `&cursor=${cursor}` : ''}`, { token: ws.token });
    for (const c of page.body.comments) ids.add(c.id);
    cursor = page.body.nextCursor;
  } while (cursor);
  t.equal(ids.size, 150 + written + 1, 'nothing lost: before, during and after');
  const members = await server.call('GET', '/members', { token: ws.token });
  t.ok(members.body.members.some((m: any) => m.memberId === member.body.memberId));
  const old = server.deps.readStore.withPrefix('rm');
  t.equal(await old.get('comments', before.body.comments[0].id), null, 'the old generation was dropped');
  await old.close();
});
