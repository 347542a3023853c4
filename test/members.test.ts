import t from 'tap';
import { startServer } from './support/server.js';

const server = await startServer(t);

t.test('POST /members creates one member; GET lists it with the owner', async (t) => {
  const ws = await server.workspace();
  const created = await server.call('POST', '/members', { token: ws.token, body: { email: 'dev@acme.test', name: 'Dev', role: 'team' } });
  t.equal(created.status, 201);
  t.match(created.body, { memberId: String, email: 'dev@acme.test', name: 'Dev', role: 'team', companyLoginApproved: false });
  const list = await server.call('GET', '/members', { token: ws.token });
  t.equal(list.status, 200);
  t.same(list.body.members.map((m: any) => m.email).sort(), ['dev@acme.test', list.body.members.find((m: any) => m.owner).email].sort());
  t.notOk('assigned' in list.body.members[0], 'no assigned flag without domainId');
});

t.test('a duplicate email is 400, whatever its case', async (t) => {
  const ws = await server.workspace();
  t.equal((await server.call('POST', '/members', { token: ws.token, body: { email: 'dup@acme.test', name: 'A', role: 'team' } })).status, 201);
  const again = await server.call('POST', '/members', { token: ws.token, body: { email: ' DUP@Acme.test', name: 'B', role: 'user' } });
  t.equal(again.status, 400);
  t.same(again.body, { error: 'A member with this email already exists' });
  const owner = await server.call('POST', '/members', { token: ws.token, body: { email: `owner${0}@example.com`.replace('0', ''), name: 'x', role: 'team' } });
  t.ok([201, 400].includes(owner.status));
});

t.test('ten simultaneous POSTs of one new email: exactly one 201', async (t) => {
  const ws = await server.workspace();
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => server.call('POST', '/members', { token: ws.token, body: { email: 'race@acme.test', name: `R${i}`, role: 'team' } })),
  );
  t.same(answers.map((a) => a.status).sort(), [201, ...Array(9).fill(400)]);
  const list = await server.call('GET', '/members', { token: ws.token });
  t.equal(list.body.members.filter((m: any) => m.email === 'race@acme.test').length, 1);
});

t.test('domainId assigns at once; assigned appears on every item with domainId', async (t) => {
  const ws = await server.workspace();
  const other = await ws.project('https://other-members.example.com');
  const a = await server.call('POST', '/members', { token: ws.token, body: { email: 'a@acme.test', name: 'A', role: 'team', domainId: other.publicKey } });
  t.equal(a.status, 201);
  t.equal(a.body.assigned, true);
  await ws.settings({ defaultProjectAccess: 'none' });
  const b = await server.call('POST', '/members', { token: ws.token, body: { email: 'b@acme.test', name: 'B', role: 'team' } });
  t.same(b.body.projectIds, [], 'default none: no project');
  const list = await server.call('GET', `/members?domainId=${encodeURIComponent('other-members.example.com')}`, { token: ws.token });
  const byEmail = Object.fromEntries(list.body.members.map((m: any) => [m.email, m.assigned]));
  t.equal(byEmail['a@acme.test'], true);
  t.equal(byEmail['b@acme.test'], false);
  t.ok(list.body.members.every((m: any) => typeof m.assigned === 'boolean'), 'assigned on every item');
  t.equal(list.body.members.find((m: any) => m.owner).assigned, true, 'the owner sees every project');
});

t.test('default access "all" grants every existing project', async (t) => {
  const ws = await server.workspace();
  const second = await ws.project('https://second-all.example.com');
  const m = await server.call('POST', '/members', { token: ws.token, body: { email: 'all@acme.test', name: 'All', role: 'user' } });
  t.same([...m.body.projectIds].sort(), [ws.projectId, second.projectId].sort());
});

t.test('PUT assigns and unassigns; DELETE removes; the owner stays', async (t) => {
  const ws = await server.workspace();
  await ws.settings({ defaultProjectAccess: 'none' });
  const { body: member } = await server.call('POST', '/members', { token: ws.token, body: { email: 'pa@acme.test', name: 'P', role: 'team' } });
  const assign = await server.call('PUT', '/members', { token: ws.token, body: { memberId: member.memberId, domainId: ws.domain, assigned: true } });
  t.equal(assign.status, 200);
  t.same(assign.body, { memberId: member.memberId, domainId: ws.domain, assigned: true });
  let list = await server.call('GET', `/members?domainId=${ws.projectId}`, { token: ws.token });
  t.equal(list.body.members.find((m: any) => m.memberId === member.memberId).assigned, true);
  await server.call('PUT', '/members', { token: ws.token, body: { memberId: member.memberId, domainId: ws.projectId, assigned: false } });
  list = await server.call('GET', `/members?domainId=${ws.projectId}`, { token: ws.token });
  t.equal(list.body.members.find((m: any) => m.memberId === member.memberId).assigned, false);
  const removed = await server.call('DELETE', `/members?memberId=${member.memberId}`, { token: ws.token });
  t.same(removed.body, { removed: true });
  list = await server.call('GET', '/members', { token: ws.token });
  t.notOk(list.body.members.some((m: any) => m.memberId === member.memberId));
  t.equal((await server.call('DELETE', `/members?memberId=${member.memberId}`, { token: ws.token })).status, 404);
  const owner = await server.call('DELETE', `/members?memberId=${ws.ownerMemberId}`, { token: ws.token });
  t.equal(owner.status, 403);
  t.same(owner.body, { error: 'The account owner cannot be removed' });
  const again = await server.call('POST', '/members', { token: ws.token, body: { email: 'pa@acme.test', name: 'P2', role: 'team' } });
  t.equal(again.status, 201, 'a removed member email can be added again');
});

t.test('errors: token, scope, validation, unknown project, SSO', async (t) => {
  const ws = await server.workspace();
  t.same(await server.call('GET', '/members').then((r) => [r.status, r.body]), [401, { error: 'Invalid integration token' }]);
  t.same(await server.call('GET', '/members', { token: 'nope' }).then((r) => [r.status, r.body]), [401, { error: 'Invalid integration token' }]);
  const readOnly = await ws.tokenWith(['read']);
  const denied = await server.call('POST', '/members', { token: readOnly, body: { email: 'x@acme.test', name: 'X', role: 'team' } });
  t.same([denied.status, denied.body], [403, { error: "Token lacks the 'write' action" }]);
  t.equal((await server.call('GET', '/members', { token: readOnly })).status, 200);
  const bad = await server.call('POST', '/members', { token: ws.token, body: { email: 'not-an-email', name: 'X', role: 'admin' } });
  t.equal(bad.status, 400);
  t.match(bad.body.error, /email/);
  t.match(bad.body.error, /role/);
  const noProject = await server.call('POST', '/members', { token: ws.token, body: { email: 'np@acme.test', name: 'X', role: 'team', domainId: 'sc_missing' } });
  t.same([noProject.status, noProject.body], [404, { error: 'Project not found' }]);
  t.equal((await server.call('PUT', '/members', { token: ws.token, body: { memberId: 'nobody', domainId: ws.projectId, assigned: true } })).status, 404);
  await ws.settings({ ssoRequired: true });
  for (const [method, path] of [['GET', '/members'], ['POST', '/members'], ['PUT', '/members'], ['DELETE', '/members?memberId=x'], ['GET', '/comments']] as const) {
    const blocked = await server.call(method, path, { token: ws.token, body: method === 'POST' || method === 'PUT' ? {} : undefined });
    t.same([blocked.status, blocked.body], [403, { error: 'Workspace requires SSO' }], `${method} ${path} blocked`);
  }
});

t.test("one account's token never reaches another account", async (t) => {
  const mine = await server.workspace();
  const theirs = await server.workspace();
  const { body: member } = await server.call('POST', '/members', { token: theirs.token, body: { email: 'theirs@acme.test', name: 'T', role: 'team' } });
  const viaDomain = await server.call('GET', `/members?domainId=${theirs.publicKey}`, { token: mine.token });
  t.same([viaDomain.status, viaDomain.body], [404, { error: 'Project not found' }]);
  t.equal((await server.call('DELETE', `/members?memberId=${member.memberId}`, { token: mine.token })).status, 404);
  t.equal((await server.call('PUT', '/members', { token: mine.token, body: { memberId: member.memberId, domainId: mine.projectId, assigned: true } })).status, 404);
  const list = await server.call('GET', '/members', { token: mine.token });
  t.notOk(list.body.members.some((m: any) => m.email === 'theirs@acme.test'));
});
