import t from 'tap';
import { startServer } from './support/server.js';

const server = await startServer(t);

t.test('POST /clients: 201 when created, 200 with the existing client, name updated', async (t) => {
  const ws = await server.workspace();
  const created = await server.call('POST', '/clients', { token: ws.token, body: { domainId: ws.publicKey, email: 'rev@client.test', name: 'Rev', autoApprove: false } });
  t.same([created.status, created.body], [201, { email: 'rev@client.test', name: 'Rev', approved: false }]);
  const same = await server.call('POST', '/clients', { token: ws.token, body: { domainId: ws.projectId, email: 'REV@client.test', name: 'Rev', autoApprove: true } });
  t.same([same.status, same.body], [200, { email: 'rev@client.test', name: 'Rev', approved: false }], 'existing returned, approval untouched');
  const renamed = await server.call('POST', '/clients', { token: ws.token, body: { domainId: ws.domain, email: 'rev@client.test', name: 'Reviewer' } });
  t.same([renamed.status, renamed.body.name], [200, 'Reviewer']);
  const list = await server.call('GET', `/clients?domainId=${ws.publicKey}`, { token: ws.token });
  t.equal(list.status, 200);
  t.match(list.body, { clients: [{ email: 'rev@client.test', name: 'Reviewer', approved: false }], nextCursor: null });
  const auto = await server.call('POST', '/clients', { token: ws.token, body: { domainId: ws.publicKey, email: 'auto@client.test', name: 'Auto', autoApprove: true } });
  t.same([auto.status, auto.body.approved], [201, true]);
});

t.test('ten simultaneous POSTs of one client: one client', async (t) => {
  const ws = await server.workspace();
  const answers = await Promise.all(Array.from({ length: 10 }, () => server.call('POST', '/clients', { token: ws.token, body: { domainId: ws.publicKey, email: 'same@client.test', name: 'Same' } })));
  t.same(answers.map((a) => a.status).sort(), [200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
  const list = await server.call('GET', `/clients?domainId=${ws.publicKey}`, { token: ws.token });
  t.equal(list.body.clients.length, 1);
});

t.test('PUT approves and revokes; DELETE removes', async (t) => {
  const ws = await server.workspace();
  await server.call('POST', '/clients', { token: ws.token, body: { domainId: ws.publicKey, email: 'c@client.test', name: 'C' } });
  const approve = await server.call('PUT', '/clients', { token: ws.token, body: { domainId: ws.publicKey, email: 'c@client.test', approved: true } });
  t.same([approve.status, approve.body], [200, { email: 'c@client.test', approved: true }]);
  let list = await server.call('GET', `/clients?domainId=${ws.publicKey}`, { token: ws.token });
  t.equal(list.body.clients[0].approved, true);
  const revoke = await server.call('PUT', '/clients', { token: ws.token, body: { domainId: ws.publicKey, email: 'c@client.test', approved: false } });
  t.same(revoke.body, { email: 'c@client.test', approved: false });
  const removed = await server.call('DELETE', `/clients?domainId=${ws.publicKey}&email=c%40client.test`, { token: ws.token });
  t.same([removed.status, removed.body], [200, { removed: true }]);
  list = await server.call('GET', `/clients?domainId=${ws.publicKey}`, { token: ws.token });
  t.same(list.body.clients, []);
  t.same(await server.call('PUT', '/clients', { token: ws.token, body: { domainId: ws.publicKey, email: 'c@client.test', approved: true } }).then((r) => [r.status, r.body]), [404, { error: 'Client not found' }]);
  t.equal((await server.call('DELETE', `/clients?domainId=${ws.publicKey}&email=c%40client.test`, { token: ws.token })).status, 404);
  t.equal((await server.call('GET', '/clients?domainId=sc_nope', { token: ws.token })).status, 404);
  t.equal((await server.call('GET', '/clients', { token: ws.token })).status, 400, 'domainId is required');
});

t.test('client login token: only for an approved client; the widget session follows the client', async (t) => {
  const ws = await server.workspace();
  const missing = await server.call('POST', '/client-token', { token: ws.token, body: { domainId: ws.publicKey, email: 'ghost@client.test' } });
  t.same([missing.status, missing.body], [404, { error: 'Client not found' }]);
  await server.call('POST', '/clients', { token: ws.token, body: { domainId: ws.publicKey, email: 'w@client.test', name: 'Widget User' } });
  const unapproved = await server.call('POST', '/client-token', { token: ws.token, body: { domainId: ws.publicKey, email: 'w@client.test' } });
  t.same([unapproved.status, unapproved.body], [403, { error: 'Client is not approved' }]);
  await server.call('PUT', '/clients', { token: ws.token, body: { domainId: ws.publicKey, email: 'w@client.test', approved: true } });
  const issued = await server.call('POST', '/client-token', { token: ws.token, body: { domainId: ws.publicKey, email: 'w@client.test' } });
  t.equal(issued.status, 200);
  t.same(Object.keys(issued.body).sort(), ['email', 'name', 'token']);
  t.match(issued.body, { email: 'w@client.test', name: 'Widget User', token: String });
  const viaQuery = await server.call('GET', `/api/widget/session?service-token=${encodeURIComponent(issued.body.token)}`);
  t.equal(viaQuery.status, 200);
  t.match(viaQuery.body, { client: { email: 'w@client.test', name: 'Widget User' }, project: { projectId: ws.projectId, publicKey: ws.publicKey } });
  const days = (Date.parse(viaQuery.body.expiresAt) - Date.now()) / 86_400_000;
  t.ok(days > 29.9 && days <= 30, `valid 30 days (${days.toFixed(3)})`);
  const viaHeader = await server.call('GET', '/api/widget/session', { headers: { authorization: `Bearer ${issued.body.token}` } });
  t.equal(viaHeader.status, 200);
  t.equal((await server.call('GET', '/api/widget/session?service-token=forged')).status, 401);
  t.equal((await server.call('GET', '/api/widget/session')).status, 401);

  await server.call('PUT', '/clients', { token: ws.token, body: { domainId: ws.publicKey, email: 'w@client.test', approved: false } });
  const afterRevoke = await server.call('GET', `/api/widget/session?service-token=${encodeURIComponent(issued.body.token)}`);
  t.same([afterRevoke.status, afterRevoke.body], [401, { error: 'Invalid or expired client token' }]);
  await server.call('PUT', '/clients', { token: ws.token, body: { domainId: ws.publicKey, email: 'w@client.test', approved: true } });
  t.equal((await server.call('GET', `/api/widget/session?service-token=${encodeURIComponent(issued.body.token)}`)).status, 401, 're-approval does not revive old tokens');
  const fresh = await server.call('POST', '/client-token', { token: ws.token, body: { domainId: ws.publicKey, email: 'w@client.test' } });
  t.equal((await server.call('GET', `/api/widget/session?service-token=${encodeURIComponent(fresh.body.token)}`)).status, 200);
  await server.call('DELETE', `/clients?domainId=${ws.publicKey}&email=w%40client.test`, { token: ws.token });
  t.equal((await server.call('GET', `/api/widget/session?service-token=${encodeURIComponent(fresh.body.token)}`)).status, 401, 'removal ends it');
});

t.test('another account cannot see or touch this project\'s clients', async (t) => {
  const ws = await server.workspace();
  const other = await server.workspace();
  await server.call('POST', '/clients', { token: ws.token, body: { domainId: ws.publicKey, email: 'mine@client.test', name: 'Mine', autoApprove: true } });
  for (const [method, path, body] of [
    ['GET', `/clients?domainId=${ws.publicKey}`, undefined],
    ['POST', '/clients', { domainId: ws.publicKey, email: 'x@client.test', name: 'X' }],
    ['PUT', '/clients', { domainId: ws.projectId, email: 'mine@client.test', approved: false }],
    ['DELETE', `/clients?domainId=${ws.projectId}&email=mine%40client.test`, undefined],
    ['POST', '/client-token', { domainId: ws.domain, email: 'mine@client.test' }],
  ] as const) {
    const answer = await server.call(method, path, { token: other.token, body });
    t.same([answer.status, answer.body], [404, { error: 'Project not found' }], `${method} ${path}`);
  }
});
