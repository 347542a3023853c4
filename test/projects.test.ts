import t from 'tap';
import { startServer } from './support/server.js';

const server = await startServer(t);

t.test('projects: create, address by key, id or domain, rename and settings', async (t) => {
  const ws = await server.workspace();
  const created = await server.call('POST', '/domains', { token: ws.token, body: { domain: 'Shop.Example.com/', name: 'Shop' } });
  t.equal(created.status, 201);
  t.match(created.body, { projectId: String, publicKey: /^sc_/, domain: 'https://shop.example.com', name: 'Shop', settings: {} });
  const dup = await server.call('POST', '/domains', { token: ws.token, body: { domain: 'https://shop.example.com' } });
  t.same([dup.status, dup.body], [409, { error: 'A project with this domain already exists' }]);
  t.equal((await server.call('POST', '/domains', { token: ws.token, body: { domain: 'not a domain' } })).status, 400);
  for (const domainId of [created.body.publicKey, created.body.projectId, 'shop.example.com', 'HTTPS://SHOP.EXAMPLE.COM/', 'http://shop.example.com']) {
    const got = await server.call('GET', `/domains/${encodeURIComponent(domainId)}/settings`, { token: ws.token });
    t.equal(got.body.projectId, created.body.projectId, `addressed as ${domainId}`);
  }
  const updated = await server.call('PUT', `/domains/${created.body.publicKey}/settings`, { token: ws.token, body: { name: 'Shop EU', settings: { widgetColor: '#ff0000' } } });
  t.match(updated.body, { name: 'Shop EU', settings: { widgetColor: '#ff0000' } });
  const read = await server.call('GET', `/domains/${created.body.publicKey}/settings`, { token: ws.token });
  t.match(read.body, { name: 'Shop EU', settings: { widgetColor: '#ff0000' } });
  const list = await server.call('GET', '/domains', { token: ws.token });
  t.same(list.body.domains.map((d: any) => d.domain).sort(), [ws.domain, 'https://shop.example.com'].sort());
  const noSettings = await ws.tokenWith(['read', 'write']);
  t.same(await server.call('POST', '/domains', { token: noSettings, body: { domain: 'x.example.com' } }).then((r) => [r.status, r.body]), [403, { error: "Token lacks the 'settings' action" }]);
  const account = await server.call('GET', '/account', { token: ws.token });
  t.match(account.body, { accountId: ws.accountId, owner: { memberId: ws.ownerMemberId }, settings: { defaultProjectAccess: 'all', ssoRequired: false }, projectCount: 2 });
});

t.test('webhooks: the secret is shown once; update, list, delete; unsafe targets refused', async (t) => {
  const ws = await server.workspace();
  const created = await server.call('POST', `/domains/${ws.publicKey}/webhooks`, {
    token: ws.token,
    body: { name: 'Slack', event: 'status_update', url: 'https://hooks.example.com/feedback', method: 'PUT', auth: { mode: 'bearer', token: 's3cret' } },
  });
  t.equal(created.status, 201);
  t.match(created.body, { webhookId: String, name: 'Slack', event: 'status_update', method: 'PUT', authMode: 'bearer', enabled: true, signingSecret: /^whsec_[A-Za-z0-9+/=]{40,}$/ });
  const list = await server.call('GET', `/domains/${ws.publicKey}/webhooks`, { token: ws.token });
  t.equal(list.body.webhooks.length, 1);
  t.notOk('signingSecret' in list.body.webhooks[0], 'never listed again');
  t.notOk(JSON.stringify(list.body).includes('s3cret'));
  const updated = await server.call('PUT', `/domains/${ws.publicKey}/webhooks/${created.body.webhookId}`, { token: ws.token, body: { enabled: false } });
  t.match(updated.body, { enabled: false, name: 'Slack' });
  t.equal((await server.call('PUT', `/domains/${ws.publicKey}/webhooks/nope`, { token: ws.token, body: { enabled: false } })).status, 404);
  const removed = await server.call('DELETE', `/domains/${ws.publicKey}/webhooks/${created.body.webhookId}`, { token: ws.token });
  t.same(removed.body, { removed: true });
  t.same((await server.call('GET', `/domains/${ws.publicKey}/webhooks`, { token: ws.token })).body.webhooks, []);
  const badEvent = await server.call('POST', `/domains/${ws.publicKey}/webhooks`, { token: ws.token, body: { name: 'x', event: 'deleted', url: 'https://h.example.com' } });
  t.equal(badEvent.status, 400);
  t.match(badEvent.body.error, /^event:/);
});

t.test('webhook targets on private addresses are refused unless allowed', async (t) => {
  const strict = await startServer(t, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
  const ws = await strict.workspace();
  for (const url of ['http://127.0.0.1:8080/hook', 'http://10.1.2.3/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/hook', 'http://localhost/hook']) {
    const refused = await strict.call('POST', `/domains/${ws.publicKey}/webhooks`, { token: ws.token, body: { name: 'x', event: 'comment', url } });
    t.equal(refused.status, 400, url);
    t.match(refused.body.error, /^url:/);
  }
});
