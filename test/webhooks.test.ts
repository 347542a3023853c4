import t from 'tap';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { startReceiver, type Answer, type Received } from './support/receiver.js';
import { startServer, type TestServer, type Workspace } from './support/server.js';

// Spec section 6 and decisions.md section 4, seen from a real receiver on loopback.
const server = await startServer(t, { WEBHOOK_RETRY_SCHEDULE: '150ms,300ms,600ms', WEBHOOK_TIMEOUT_MS: '1000', RATE_LIMIT_PER_MINUTE: '100000' });

async function addWebhook(ws: Workspace, body: Record<string, unknown>) {
  const created = await server.call('POST', `/domains/${ws.publicKey}/webhooks`, { token: ws.token, body: { name: 'hook', ...body } });
  if (created.status !== 201) throw new Error(`webhook not created: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body as { webhookId: string; signingSecret: string };
}

const createComment = (ws: Workspace, body: Record<string, unknown> = {}) =>
  server.call('POST', '/comments/create', { token: ws.token, body: { domainId: ws.publicKey, text: 'Hello', url: `${ws.domain}/page`, ...body } }).then((r) => {
    if (r.status !== 201) throw new Error(`comment not created: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  });

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

t.test('comment, reply and status_update payloads: every field, its type, `type` first', async (t) => {
  const ws = await server.workspace();
  await server.call('PUT', `/domains/${ws.publicKey}/settings`, { token: ws.token, body: { name: 'Marketing site' } });
  const receiver = await startReceiver(t);
  for (const event of ['comment', 'reply', 'status_update']) await addWebhook(ws, { event, url: `${receiver.url}/${event}` });

  const metadata = { browser: 'Firefox 140', os: 'Linux', viewport: '1280x800', consoleErrors: [{ kind: 'TypeError', message: 'x is undefined', source: 'https://cdn.example.com/app.js', line: 3, col: 7, at: '2026-11-01T10:00:00.000Z' }], custom: { plan: 'pro' } };
  const attachments = [{ type: 'image', url: 'https://cdn.example.com/shot.png', name: 'shot.png' }];
  const comment = await createComment(ws, {
    text: 'The **button** is broken, cc @dana@agency.test',
    url: `${ws.domain}/pricing?plan=pro`,
    title: 'Broken button',
    priority: 'high',
    author: { name: 'Vera', email: 'vera@visitor.test' },
    metadata,
    attachments,
  });
  const [created] = await receiver.waitFor(1, (r) => r.path === '/comment');
  t.same(Object.keys(created!.json), ['type', 'commentId', 'commentNumber', 'projectId', 'projectName', 'publicKey', 'title', 'text', 'status', 'priority', 'date', 'by', 'userData', 'domain', 'slug', 'link', 'metadata', 'mentions', 'attachedUsers', 'attachments']);
  t.same(created!.json, {
    type: 'comment',
    commentId: comment.id,
    commentNumber: 1,
    projectId: ws.projectId,
    projectName: 'Marketing site',
    publicKey: ws.publicKey,
    title: 'Broken button',
    text: 'The **button** is broken, cc @dana@agency.test',
    status: 'todo',
    priority: 'high',
    date: comment.createdAt,
    by: 'Vera',
    userData: { name: 'Vera', email: 'vera@visitor.test' },
    domain: ws.domain,
    slug: '/pricing',
    link: `${ws.domain}/pricing?plan=pro#sc-comment-${comment.id}`,
    metadata,
    mentions: [{ email: 'dana@agency.test' }],
    attachedUsers: [],
    attachments,
  });
  t.match(created!.json.date, iso);
  t.equal(created!.method, 'POST');
  t.equal(created!.headers['content-type'], 'application/json');

  const reply = await server.call('POST', '/comments/reply', { token: ws.token, body: { commentId: comment.id, text: 'Fixed in **v2**', name: 'Dana' } });
  const [replied] = await receiver.waitFor(1, (r) => r.path === '/reply');
  t.same(Object.keys(replied!.json), ['type', 'commentId', 'commentNumber', 'replyText', 'date', 'by', 'domain', 'slug', 'link', 'metadata', 'attachments']);
  t.same(replied!.json, {
    type: 'reply',
    commentId: comment.id,
    commentNumber: 1,
    replyText: 'Fixed in **v2**',
    date: reply.body.date,
    by: 'Dana',
    domain: ws.domain,
    slug: '/pricing',
    link: `${ws.domain}/pricing?plan=pro#sc-comment-${comment.id}`,
    metadata,
    attachments: [],
  });

  // One command changing both: one notification naming both fields.
  await server.call('POST', '/comments/update', { token: ws.token, body: { commentId: comment.id, status: 'in_progress', priority: 'urgent' } });
  await server.call('POST', '/comments/update', { token: ws.token, body: { commentId: comment.id, status: 'done' } });
  await server.call('POST', '/comments/update', { token: ws.token, body: { commentId: comment.id, priority: 'low', title: 'Only the title and priority' } });
  await server.call('POST', '/comments/update', { token: ws.token, body: { commentId: comment.id, title: 'A title alone notifies nobody' } });
  const updates = await receiver.waitFor(3, (r) => r.path === '/status_update');
  t.same(Object.keys(updates[0]!.json), ['type', 'commentId', 'commentNumber', 'status', 'priority', 'previousStatus', 'previousPriority', 'updatedFields', 'date', 'by', 'domain', 'slug', 'link']);
  const common = { type: 'status_update', commentId: comment.id, commentNumber: 1, by: 'API integration', domain: ws.domain, slug: '/pricing', link: `${ws.domain}/pricing?plan=pro#sc-comment-${comment.id}` };
  t.match(updates[0]!.json, { ...common, status: 'in_progress', priority: 'urgent', previousStatus: 'todo', previousPriority: 'high', updatedFields: ['status', 'priority'] });
  t.match(updates[1]!.json, { ...common, status: 'done', priority: 'urgent', previousStatus: 'in_progress', previousPriority: 'urgent', updatedFields: ['status'] });
  t.match(updates[2]!.json, { ...common, status: 'done', priority: 'low', previousStatus: 'done', previousPriority: 'urgent', updatedFields: ['priority'] });
  for (const update of updates) t.match(update.json.date, iso);
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(receiver.received.filter((r) => r.path === '/status_update').length, 3, 'a title change is not a status_update');
});

t.test('auth modes, PUT, several webhooks per event, a disabled one gets nothing', async (t) => {
  const ws = await server.workspace();
  const receiver = await startReceiver(t);
  await addWebhook(ws, { event: 'comment', url: `${receiver.url}/none` });
  await addWebhook(ws, { event: 'comment', url: `${receiver.url}/bearer`, method: 'PUT', auth: { mode: 'bearer', token: 'tok-123' } });
  await addWebhook(ws, { event: 'comment', url: `${receiver.url}/basic`, auth: { mode: 'basic', username: 'ann', password: 's3cret:x' } });
  await addWebhook(ws, { event: 'comment', url: `${receiver.url}/off`, enabled: false });
  const toggled = await addWebhook(ws, { event: 'comment', url: `${receiver.url}/toggled` });
  await server.call('PUT', `/domains/${ws.publicKey}/webhooks/${toggled.webhookId}`, { token: ws.token, body: { enabled: false } });
  await createComment(ws);
  const got = await receiver.waitFor(3);
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.same(receiver.received.map((r) => r.path).sort(), ['/basic', '/bearer', '/none']);
  const by = (path: string) => got.find((r) => r.path === path)!;
  t.equal(by('/none').headers.authorization, undefined);
  t.equal(by('/none').headers['x-webhook-token'], undefined);
  t.equal(by('/bearer').method, 'PUT');
  t.equal(by('/bearer').headers.authorization, 'Bearer tok-123');
  t.equal(by('/bearer').headers['x-webhook-token'], 'tok-123');
  const basic = `Basic ${Buffer.from('ann:s3cret:x').toString('base64')}`;
  t.equal(by('/basic').headers.authorization, basic);
  t.equal(by('/basic').headers['x-webhook-auth'], basic);
  t.not(by('/none').headers['webhook-id'], by('/basic').headers['webhook-id'], 'each webhook gets its own delivery');
});

t.test('the signature verifies with the standardwebhooks library; a wrong secret does not', async (t) => {
  const ws = await server.workspace();
  const receiver = await startReceiver(t);
  const { signingSecret } = await addWebhook(ws, { event: 'comment', url: receiver.url });
  t.match(signingSecret, /^whsec_[A-Za-z0-9+/]+=*$/);
  const comment = await createComment(ws);
  const [request] = await receiver.waitFor(1);
  const headers = { 'webhook-id': String(request!.headers['webhook-id']), 'webhook-timestamp': String(request!.headers['webhook-timestamp']), 'webhook-signature': String(request!.headers['webhook-signature']) };
  t.match(headers['webhook-id'], /^msg_/);
  t.ok(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000) < 60, 'the timestamp is now, in seconds');
  const verified = new StandardWebhook(signingSecret).verify(request!.body, headers) as { commentId: string };
  t.equal(verified.commentId, comment.id);
  const other = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  t.throws(() => new StandardWebhook(other).verify(request!.body, headers));
  t.throws(() => new StandardWebhook(signingSecret).verify(request!.body.replace('Hello', 'Hellp'), headers), 'a changed body fails');
});

t.test('failing twice, then succeeding: three attempts with one webhook-id, then the log shows them', async (t) => {
  const ws = await server.workspace();
  const receiver = await startReceiver(t, (_r, i) => ({ status: i < 2 ? 500 : 204 }));
  const { webhookId, signingSecret } = await addWebhook(ws, { event: 'comment', url: receiver.url });
  const comment = await createComment(ws);
  const attempts = await receiver.waitFor(3);
  t.equal(new Set(attempts.map((a) => a.headers['webhook-id'])).size, 1, 'the same webhook-id every time');
  t.equal(new Set(attempts.map((a) => a.body)).size, 1, 'the same body every time');
  for (const a of attempts) t.ok(new StandardWebhook(signingSecret).verify(a.body, a.headers as Record<string, string>), 'each attempt is signed afresh');
  t.ok(attempts[1]!.at - attempts[0]!.at >= 120, 'the first retry waits the first step (150 ms less 10 % jitter)');
  t.ok(attempts[2]!.at - attempts[1]!.at >= 250, 'the second waits the second step');

  const log = await eventually(async () => {
    const page = await server.call('GET', `/domains/${ws.publicKey}/webhooks/${webhookId}/deliveries`, { token: ws.token });
    return page.body.deliveries?.[0]?.status === 'delivered' ? page : null;
  });
  t.equal(log.body.deliveries.length, 1);
  t.match(log.body.deliveries[0], { deliveryId: attempts[0]!.headers['webhook-id'], eventType: 'comment', commentId: comment.id, status: 'delivered', nextAttemptAt: null });
  t.same(log.body.deliveries[0].attempts.map((a: any) => a.statusCode), [500, 500, 204]);
  for (const a of log.body.deliveries[0].attempts) t.match(a, { at: iso, latencyMs: Number });
  const one = await server.call('GET', `/domains/${ws.publicKey}/webhooks/${webhookId}/deliveries/${log.body.deliveries[0].deliveryId}`, { token: ws.token });
  t.same(one.body.payload, JSON.parse(attempts[0]!.body));
});

t.test('per comment, deliveries to one endpoint keep the order of the events, even across retries', async (t) => {
  const ws = await server.workspace();
  let failedOnce = false;
  const receiver = await startReceiver(t, (r) => {
    // The first status_update fails once: the later ones must wait behind its retry.
    if (r.json?.status === 'in_progress' && !failedOnce) {
      failedOnce = true;
      return { status: 503 };
    }
    return { status: 200 };
  });
  await addWebhook(ws, { event: 'status_update', url: receiver.url });
  const comment = await createComment(ws);
  const sequence = ['in_progress', 'review', 'rework', 'review', 'done'];
  for (const status of sequence) await server.call('POST', '/comments/update', { token: ws.token, body: { commentId: comment.id, status } });
  const got = await receiver.waitFor(6);
  const delivered = got.slice(1).map((r) => r.json.status);
  t.same(delivered, sequence, 'in order after the retry');
  t.same(got.slice(1).map((r) => r.json.previousStatus), ['todo', ...sequence.slice(0, -1)]);
});

t.test('Retry-After on 429 is honoured; 410 disables the webhook; redirects are not followed', async (t) => {
  const ws = await server.workspace();
  let slowDowns = 0;
  const receiver = await startReceiver(t, (r): Answer => {
    if (r.path === '/slow-down') return slowDowns++ === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 };
    if (r.path === '/gone') return { status: 410 };
    if (r.path === '/moved') return { status: 302, headers: { location: `/target` } };
    return { status: 200 };
  });
  await addWebhook(ws, { event: 'comment', url: `${receiver.url}/slow-down` });
  const gone = await addWebhook(ws, { event: 'comment', url: `${receiver.url}/gone` });
  const moved = await addWebhook(ws, { event: 'comment', url: `${receiver.url}/moved` });
  await createComment(ws);
  const slow = await receiver.waitFor(2, (r) => r.path === '/slow-down');
  t.ok(slow[1]!.at - slow[0]!.at >= 950, `the retry waited for Retry-After (${slow[1]!.at - slow[0]!.at} ms)`);
  await receiver.waitFor(4, (r) => r.path === '/moved');
  t.equal(receiver.received.filter((r) => r.path === '/target').length, 0, 'the redirect target is never called');
  const movedLog = await eventually(async () => {
    const page = await server.call('GET', `/domains/${ws.publicKey}/webhooks/${moved.webhookId}/deliveries`, { token: ws.token });
    return page.body.deliveries?.[0]?.status === 'dead' ? page : null;
  });
  t.same(movedLog.body.deliveries[0].attempts.map((a: any) => a.statusCode), [302, 302, 302, 302], 'four attempts, then dead-lettered');
  t.match(movedLog.body.deliveries[0].reason, /302/);
  const dead = await server.call('GET', `/domains/${ws.publicKey}/webhooks/${moved.webhookId}/deliveries?status=dead`, { token: ws.token });
  t.equal(dead.body.deliveries.length, 1, 'dead letters are listed');

  t.equal(receiver.received.filter((r) => r.path === '/gone').length, 1);
  const webhooks = await eventually(async () => {
    const list = await server.call('GET', `/domains/${ws.publicKey}/webhooks`, { token: ws.token });
    return list.body.webhooks.find((w: any) => w.webhookId === gone.webhookId)?.enabled === false ? list : null;
  });
  t.ok(webhooks, 'the webhook shows as disabled');
  await createComment(ws);
  await receiver.waitFor(3, (r) => r.path === '/slow-down');
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(receiver.received.filter((r) => r.path === '/gone').length, 1, 'nothing more goes to a gone endpoint');
});

t.test('a receiver slower than the timeout is retried', async (t) => {
  const ws = await server.workspace();
  const receiver = await startReceiver(t, (_r, i) => (i === 0 ? { status: 200, delayMs: 3000 } : { status: 200 }));
  const { webhookId } = await addWebhook(ws, { event: 'comment', url: receiver.url });
  await createComment(ws);
  await receiver.waitFor(2);
  const log = await eventually(async () => {
    const page = await server.call('GET', `/domains/${ws.publicKey}/webhooks/${webhookId}/deliveries`, { token: ws.token });
    return page.body.deliveries?.[0]?.status === 'delivered' ? page : null;
  });
  t.match(log.body.deliveries[0].attempts[0], { statusCode: null, error: /timed out after 1000 ms/ });
});

t.test('the inbound action endpoint emits reply and status_update like any other change', async (t) => {
  const ws = await server.workspace();
  const receiver = await startReceiver(t);
  await addWebhook(ws, { event: 'reply', url: `${receiver.url}/reply` });
  await addWebhook(ws, { event: 'status_update', url: `${receiver.url}/status` });
  const comment = await createComment(ws);
  const inbound = await ws.inboundToken(['reply', 'status_update']);
  const call = (action: string, payload: Record<string, unknown>) => server.call('POST', '/api/integrations/action', { body: { token: inbound, action, payload: { commentId: comment.id, ...payload } } });
  t.equal((await call('status_update', { status: 'review', priority: 'urgent' })).status, 200);
  t.equal((await call('reply', { text: 'Looked at it', name: 'Ops bot' })).status, 200);
  const [status] = await receiver.waitFor(1, (r) => r.path === '/status');
  t.match(status!.json, { type: 'status_update', status: 'review', priority: 'urgent', previousStatus: 'todo', previousPriority: 'normal', updatedFields: ['status', 'priority'], by: 'Inbound action' });
  const [reply] = await receiver.waitFor(1, (r) => r.path === '/reply');
  t.match(reply!.json, { type: 'reply', commentId: comment.id, replyText: 'Looked at it', by: 'Ops bot' });
});

t.test('delivery log pages newest first; retry and replay send again with the original webhook-id', async (t) => {
  const ws = await server.workspace();
  const receiver = await startReceiver(t);
  const { webhookId } = await addWebhook(ws, { event: 'comment', url: receiver.url });
  const before = new Date().toISOString();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await createComment(ws, { text: `n${i}` })).id);
  const first = await receiver.waitFor(5);
  const after = new Date().toISOString();
  const seen: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await server.call('GET', `/domains/${ws.publicKey}/webhooks/${webhookId}/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: ws.token });
    t.equal(page.status, 200);
    seen.push(...page.body.deliveries);
    cursor = page.body.nextCursor;
  } while (cursor);
  t.same(seen.map((d) => d.commentId), [...ids].reverse(), 'newest first, no gap, no overlap');

  const target = seen[2];
  const retried = await server.call('POST', `/domains/${ws.publicKey}/webhooks/${webhookId}/deliveries/${target.deliveryId}/retry`, { token: ws.token });
  t.equal(retried.status, 202);
  t.match(retried.body, { deliveryId: target.deliveryId, queued: true });
  const again = await receiver.waitFor(6);
  t.equal(again[5]!.headers['webhook-id'], target.deliveryId);
  t.equal(again[5]!.body, first.find((r) => r.headers['webhook-id'] === target.deliveryId)!.body);

  const replay = await server.call('POST', `/domains/${ws.publicKey}/webhooks/${webhookId}/replay`, { token: ws.token, body: { from: before, to: after } });
  t.equal(replay.status, 202);
  t.match(replay.body, { webhookId, deliveries: 5 });
  const replayed = (await receiver.waitFor(11)).slice(6);
  t.same(replayed.map((r) => r.headers['webhook-id']).sort(), seen.map((d) => d.deliveryId).sort(), 'the same ids again (comments are independent lanes, so in any order)');

  t.same(await server.call('POST', `/domains/${ws.publicKey}/webhooks/${webhookId}/deliveries/msg_nope/retry`, { token: ws.token }).then((r) => [r.status, r.body]), [404, { error: 'Delivery not found' }]);
  t.equal((await server.call('POST', `/domains/${ws.publicKey}/webhooks/${webhookId}/replay`, { token: ws.token, body: { from: after, to: before } })).status, 400);
  t.equal((await server.call('POST', `/domains/${ws.publicKey}/webhooks/${webhookId}/replay`, { token: ws.token, body: { from: 'yesterday', to: after } })).status, 400);
  t.equal((await server.call('GET', `/domains/${ws.publicKey}/webhooks/wh_nope/deliveries`, { token: ws.token })).status, 404);
  const readOnly = await ws.tokenWith(['read']);
  t.equal((await server.call('GET', `/domains/${ws.publicKey}/webhooks/${webhookId}/deliveries`, { token: readOnly })).status, 403);
  t.equal((await server.call('POST', `/domains/${ws.publicKey}/webhooks/${webhookId}/replay`, { token: readOnly, body: { from: before, to: after } })).status, 403);
  const other = await server.workspace();
  t.equal((await server.call('GET', `/domains/${ws.publicKey}/webhooks/${webhookId}/deliveries`, { token: other.token })).status, 404, 'another account sees nothing');
});

async function eventually<T>(probe: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export type { Received, TestServer };
