import t from 'tap';
import { startServer } from './support/server.js';

const server = await startServer(t);
const consoleError = { kind: 'TypeError', message: 'x is undefined', source: 'https://example.com/app.js', line: 10, col: 4, at: '2026-11-01T10:00:00.000Z' };

t.test('create: 201 with the comment, text as written, console errors validated', async (t) => {
  const ws = await server.workspace();
  const text = '**Bold** and `code`\n- one\n- two';
  const created = await server.call('POST', '/comments/create', {
    token: ws.token,
    body: { domainId: ws.publicKey, text, url: `${ws.domain}/pricing?plan=pro`, title: 'Button broken', priority: 'high', author: { name: 'Vera', email: 'vera@visitor.test' }, metadata: { browser: 'Firefox 140', os: 'Linux', consoleErrors: [consoleError], custom: { plan: 'pro' } }, attachments: [{ type: 'image', url: 'https://cdn.example.com/s.png', name: 's.png' }] },
  });
  t.equal(created.status, 201);
  t.match(created.body, {
    id: String, commentNumber: 1, projectId: ws.projectId, domain: ws.domain, slug: '/pricing', title: 'Button broken', text, textFormat: 'markdown-lite',
    status: 'todo', priority: 'high', archived: false, by: 'Vera', userData: { name: 'Vera', email: 'vera@visitor.test' },
    metadata: { browser: 'Firefox 140', consoleErrorCount: 1, consoleErrors: [consoleError], custom: { plan: 'pro' } }, brief: null, replies: [],
  });
  t.equal(created.body.link, `${ws.domain}/pricing?plan=pro#sc-comment-${created.body.id}`);
  t.same(Object.keys(created.body).sort(), ['archived', 'attachments', 'brief', 'by', 'commentNumber', 'createdAt', 'domain', 'id', 'link', 'metadata', 'priority', 'projectId', 'replies', 'slug', 'status', 'text', 'textFormat', 'title', 'updatedAt', 'userData'].sort());

  const badError = await server.call('POST', '/comments/create', { token: ws.token, body: { domainId: ws.publicKey, text: 'x', url: `${ws.domain}/`, metadata: { consoleErrors: [consoleError, { ...consoleError, line: 'ten' }] } } });
  t.equal(badError.status, 400);
  t.match(badError.body.error, /metadata\.consoleErrors\.1\.line/);
  const badStatus = await server.call('POST', '/comments/create', { token: ws.token, body: { domainId: ws.publicKey, text: 'x', url: `${ws.domain}/`, priority: 'asap' } });
  t.same(badStatus.status, 400);
  t.match(badStatus.body.error, /^priority:/);
  t.equal((await server.call('POST', '/comments/create', { token: ws.token, body: { domainId: ws.publicKey, url: `${ws.domain}/` } })).status, 400);
});

t.test('ten simultaneous creations get ten distinct consecutive numbers', async (t) => {
  const ws = await server.workspace();
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => server.call('POST', '/comments/create', { token: ws.token, body: { domainId: ws.publicKey, text: `c${i}`, url: `${ws.domain}/p` } })));
  t.same(answers.map((a) => a.status), Array(10).fill(201));
  t.same(answers.map((a) => a.body.commentNumber).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

t.test('reply and update; list filters, pagination, metadata_full; get one; history', async (t) => {
  const ws = await server.workspace();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const c = await server.call('POST', '/comments/create', { token: ws.token, body: { domainId: ws.publicKey, text: `n${i}`, url: `${ws.domain}/p${i}`, metadata: { consoleErrors: [consoleError] } } });
    ids.push(c.body.id);
  }
  const reply = await server.call('POST', '/comments/reply', { token: ws.token, body: { commentId: ids[0], text: 'On it **now**', name: 'Dana' } });
  t.equal(reply.status, 201);
  t.match(reply.body, { id: String, text: 'On it **now**', textFormat: 'markdown-lite', by: 'Dana', date: String });
  const update = await server.call('POST', '/comments/update', { token: ws.token, body: { commentId: ids[0], status: 'in_progress', priority: 'urgent', title: 'Renamed' } });
  t.equal(update.status, 200);
  t.match(update.body, { oldStatus: 'todo', newStatus: 'in_progress', comment: { status: 'in_progress', priority: 'urgent', title: 'Renamed' } });
  t.same((await server.call('POST', '/comments/update', { token: ws.token, body: { commentId: ids[0] } })).status, 400, 'nothing to update');
  t.same((await server.call('POST', '/comments/update', { token: ws.token, body: { commentId: ids[0], status: 'finished' } })).status, 400);
  t.same(await server.call('POST', '/comments/update', { token: ws.token, body: { commentId: 'nope', status: 'done' } }).then((r) => [r.status, r.body]), [404, { error: 'Comment not found' }]);

  const all = await server.call('GET', `/comments?domainId=${ws.publicKey}`, { token: ws.token });
  t.same(all.body.comments.map((c: any) => c.id), [...ids].reverse(), 'newest first');
  t.ok(all.body.comments.every((c: any) => c.metadata.consoleErrorCount === 1 && !('consoleErrors' in c.metadata)));
  t.equal(all.body.nextCursor, null);
  const full = await server.call('GET', `/comments?domainId=${ws.publicKey}&include=metadata_full`, { token: ws.token });
  t.ok(full.body.comments.every((c: any) => c.metadata.consoleErrors.length === 1 && c.metadata.consoleErrorCount === 1));
  const inProgress = await server.call('GET', `/comments?domainId=${ws.publicKey}&status=in_progress`, { token: ws.token });
  t.same(inProgress.body.comments.map((c: any) => c.id), [ids[0]]);
  const urgent = await server.call('GET', `/comments?domainId=${ws.publicKey}&priority=urgent`, { token: ws.token });
  t.same(urgent.body.comments.map((c: any) => c.id), [ids[0]]);

  const pages: string[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await server.call('GET', `/comments?domainId=${ws.publicKey}&limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: ws.token });
    t.ok(page.body.comments.length <= 2);
    pages.push(...page.body.comments.map((c: any) => c.id));
    cursor = page.body.nextCursor;
  } while (cursor);
  t.same(pages, [...ids].reverse(), 'pages cover every comment once');
  t.equal((await server.call('GET', `/comments?domainId=${ws.publicKey}&limit=500`, { token: ws.token })).status, 400);
  t.equal((await server.call('GET', `/comments?domainId=${ws.publicKey}&cursor=garbage`, { token: ws.token })).status, 400);

  const one = await server.call('GET', `/comments/${ids[0]}`, { token: ws.token });
  t.equal(one.status, 200);
  t.match(one.body, { id: ids[0], metadata: { consoleErrors: [consoleError], consoleErrorCount: 1 }, replies: [{ text: 'On it **now**', by: 'Dana' }], brief: null });
  t.equal((await server.call('GET', '/comments/nope', { token: ws.token })).status, 404);

  const history = await server.call('GET', `/comments/${ids[0]}/history`, { token: ws.token });
  t.equal(history.status, 200);
  t.same(history.body.events.map((e: any) => e.type), ['CommentCreated', 'CommentReplied', 'CommentStatusChanged', 'CommentPriorityChanged', 'CommentTitleChanged']);
  t.match(history.body.events[2], { revision: 2, actor: { type: 'integrationToken' }, correlationId: String, data: { previousStatus: 'todo', status: 'in_progress' } });
  t.ok(history.body.events.every((e: any) => Date.parse(e.occurredAt) > 0));
});

t.test('comments of another account are not found', async (t) => {
  const ws = await server.workspace();
  const other = await server.workspace();
  const c = await server.call('POST', '/comments/create', { token: ws.token, body: { domainId: ws.publicKey, text: 'private', url: `${ws.domain}/` } });
  t.equal((await server.call('GET', `/comments/${c.body.id}`, { token: other.token })).status, 404);
  t.equal((await server.call('GET', `/comments/${c.body.id}/history`, { token: other.token })).status, 404);
  t.equal((await server.call('POST', '/comments/reply', { token: other.token, body: { commentId: c.body.id, text: 'hi' } })).status, 404);
  t.equal((await server.call('POST', '/comments/update', { token: other.token, body: { commentId: c.body.id, status: 'done' } })).status, 404);
  t.equal((await server.call('POST', '/comments/create', { token: other.token, body: { domainId: ws.publicKey, text: 'x', url: `${ws.domain}/` } })).status, 404);
  const theirs = await server.call('GET', '/comments', { token: other.token });
  t.same(theirs.body.comments, []);
});
