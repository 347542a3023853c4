import t from 'tap';
import { commentStatuses } from '@feedback/events';
import { startServer } from './support/server.js';

const server = await startServer(t);
const action = (body: unknown) => server.call('POST', '/api/integrations/action', { body });

async function setup() {
  const ws = await server.workspace();
  const created = await server.call('POST', '/comments/create', { token: ws.token, body: { domainId: ws.publicKey, text: 'Fix me', url: `${ws.domain}/home` } });
  return { ws, commentId: created.body.id as string };
}

t.test('status_update: result with old and new status; the change is visible and audited', async (t) => {
  const { ws, commentId } = await setup();
  const token = await ws.inboundToken(['status_update']);
  const answer = await action({ token, action: 'status_update', payload: { commentId, status: 'review' } });
  t.equal(answer.status, 200);
  t.match(answer.body, { success: true, message: String, result: { _id: commentId, oldStatus: 'todo', newStatus: 'review' } });
  const priority = await action({ token, action: 'status_update', payload: { commentId, priority: 'urgent' } });
  t.match(priority.body, { success: true, result: { _id: commentId, oldStatus: 'review', newStatus: 'review' } });
  const comment = await server.call('GET', `/comments/${commentId}`, { token: ws.token });
  t.match(comment.body, { status: 'review', priority: 'urgent' });
  const history = await server.call('GET', `/comments/${commentId}/history`, { token: ws.token });
  t.match(history.body.events[1], { type: 'CommentStatusChanged', actor: { type: 'inboundToken' } });
});

t.test("the spec's error table", async (t) => {
  const { ws, commentId } = await setup();
  const token = await ws.inboundToken(['status_update']);
  t.same(await action({ token: 'forged', action: 'status_update', payload: { commentId, status: 'done' } }).then((r) => [r.status, r.body]), [403, { error: 'Invalid token' }]);
  t.same(await action({ token, action: 'delete', payload: { commentId } }).then((r) => [r.status, r.body]), [403, { error: 'Action not allowed' }]);
  t.same(await action({ token, action: 'reply', payload: { commentId, text: 'x' } }).then((r) => [r.status, r.body]), [403, { error: 'Action not allowed' }]);
  t.same(await action({ token, action: 'status_update', payload: { commentId: 'C404', status: 'done' } }).then((r) => [r.status, r.body]), [500, { error: 'Comment with ID C404 not found' }]);
  t.same(
    await action({ token, action: 'status_update', payload: { commentId, status: 'finished' } }).then((r) => [r.status, r.body]),
    [500, { error: `Invalid status: finished. Must be one of: ${commentStatuses.join(', ')}` }],
  );
  t.equal((await action({ token, action: 'status_update', payload: { commentId } })).status, 400, 'status or priority is required');
  const accountToken = await ws.inboundToken(['status_update', 'reply', 'delete'], 'account');
  t.same(await action({ token: accountToken, action: 'status_update', payload: { commentId, status: 'done' } }).then((r) => [r.status, r.body]), [400, { error: 'Domain is required for user-level tokens' }]);
  const ok = await action({ token: accountToken, action: 'status_update', payload: { commentId, status: 'done', domain: ws.domain } });
  t.match(ok.body, { success: true, result: { newStatus: 'done' } });
  t.equal((await action({ token: accountToken, action: 'status_update', payload: { commentId, status: 'done', domain: 'https://unknown.example.org' } })).status, 404);
  t.equal((await server.call('POST', '/api/integrations/action', { rawBody: '{nope' })).status, 400);
  t.equal((await action({ action: 'reply' })).status, 400, 'token is required');
});

t.test('reply and delete (archive, never removed)', async (t) => {
  const { ws, commentId } = await setup();
  const token = await ws.inboundToken(['reply', 'delete']);
  const replied = await action({ token, action: 'reply', payload: { commentId, text: 'Deployed in **v2**', name: 'CI Bot', email: 'ci@tools.test' } });
  t.equal(replied.status, 200);
  t.match(replied.body, { success: true, result: { _id: commentId } });
  const deleted = await action({ token, action: 'delete', payload: { commentId } });
  t.match(deleted.body, { success: true, result: { _id: commentId } });
  const comment = await server.call('GET', `/comments/${commentId}`, { token: ws.token });
  t.equal(comment.status, 200, 'still there');
  t.match(comment.body, { archived: true, replies: [{ text: 'Deployed in **v2**', by: 'CI Bot' }] });
  const archived = await server.call('GET', `/comments?domainId=${ws.publicKey}&archived=true`, { token: ws.token });
  t.same(archived.body.comments.map((c: any) => c.id), [commentId]);
  const active = await server.call('GET', `/comments?domainId=${ws.publicKey}&archived=false`, { token: ws.token });
  t.same(active.body.comments, []);
});

t.test('a project-scoped token reaches only its own project; revoked tokens stop', async (t) => {
  const { ws, commentId } = await setup();
  const other = await ws.project('https://second-inbound.example.com');
  const c2 = await server.call('POST', '/comments/create', { token: ws.token, body: { domainId: other.publicKey, text: 'other', url: `${other.domain}/` } });
  const token = await ws.inboundToken(['status_update']);
  t.same(await action({ token, action: 'status_update', payload: { commentId: c2.body.id, status: 'done' } }).then((r) => r.status), 500, 'other project: not found');
  const stranger = await server.workspace();
  const strangerToken = await stranger.inboundToken(['status_update']);
  t.same(await action({ token: strangerToken, action: 'status_update', payload: { commentId, status: 'done' } }).then((r) => [r.status, r.body]), [500, { error: `Comment with ID ${commentId} not found` }]);
  const issued = await server.call('POST', `/domains/${ws.publicKey}/inbound-tokens`, { token: ws.token, body: { actions: ['status_update'] } });
  t.equal(issued.status, 201);
  t.equal((await action({ token: issued.body.token, action: 'status_update', payload: { commentId, status: 'blocked' } })).status, 200);
  const revoked = await server.call('DELETE', `/domains/${ws.publicKey}/inbound-tokens/${issued.body.tokenId}`, { token: ws.token });
  t.same([revoked.status, revoked.body], [200, { revoked: true }]);
  t.same(await action({ token: issued.body.token, action: 'status_update', payload: { commentId, status: 'done' } }).then((r) => [r.status, r.body]), [403, { error: 'Invalid token' }]);
});
