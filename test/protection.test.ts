import t from 'tap';
import { startServer } from './support/server.js';

t.test('bodies over 1 MB are 413, malformed JSON 400, unknown routes 404, all JSON', async (t) => {
  const server = await startServer(t);
  const ws = await server.workspace();
  const big = await server.call('POST', '/comments/create', { token: ws.token, rawBody: JSON.stringify({ domainId: ws.publicKey, url: `${ws.domain}/`, text: 'x'.repeat(1_100_000) }) });
  t.same([big.status, big.body], [413, { error: 'Request body is too large' }]);
  const malformed = await server.call('POST', '/members', { token: ws.token, rawBody: '{"email": ' });
  t.equal(malformed.status, 400);
  t.match(malformed.body.error, /^Malformed JSON body/);
  const unknown = await server.call('GET', '/nothing-here', { token: ws.token });
  t.equal(unknown.status, 404);
  t.match(unknown.body, { error: String });
  const health = await server.call('GET', '/health');
  t.match(health.body, { status: 'ok', checks: { eventStore: { status: 'up' }, readStore: { status: 'up' } } });
});

t.test('rate limit per token: 429 with Retry-After and a JSON error; other tokens unaffected', async (t) => {
  const server = await startServer(t, { RATE_LIMIT_PER_MINUTE: '5' });
  const ws = await server.workspace();
  const other = await ws.tokenWith(['read']);
  const statuses: number[] = [];
  let limited;
  for (let i = 0; i < 7; i++) {
    const answer = await server.call('GET', '/domains', { token: ws.token });
    statuses.push(answer.status);
    if (answer.status === 429) limited = answer;
  }
  t.same(statuses, [200, 200, 200, 200, 200, 429, 429]);
  t.ok(Number(limited!.headers.get('retry-after')) > 0, 'Retry-After in seconds');
  t.match(limited!.body, { error: /Rate limit exceeded/ });
  t.equal((await server.call('GET', '/domains', { token: other })).status, 200);
});

t.test('Idempotency-Key: a retried POST returns the first answer and appends nothing', async (t) => {
  const server = await startServer(t);
  const ws = await server.workspace();
  const body = { domainId: ws.publicKey, text: 'once', url: `${ws.domain}/` };
  const first = await server.call('POST', '/comments/create', { token: ws.token, body, headers: { 'idempotency-key': 'k-1' } });
  const retry = await server.call('POST', '/comments/create', { token: ws.token, body, headers: { 'idempotency-key': 'k-1' } });
  t.equal(first.status, 201);
  t.equal(retry.status, 201);
  t.same(retry.body, first.body);
  t.equal(retry.headers.get('idempotent-replayed'), 'true');
  const list = await server.call('GET', `/comments?domainId=${ws.publicKey}`, { token: ws.token });
  t.equal(list.body.comments.length, 1);
  const another = await server.call('POST', '/comments/create', { token: ws.token, body, headers: { 'idempotency-key': 'k-2' } });
  t.not(another.body.id, first.body.id);
  const dupMember = await server.call('POST', '/members', { token: ws.token, body: { email: 'i@x.test', name: 'I', role: 'team' }, headers: { 'idempotency-key': 'm-1' } });
  const dupAgain = await server.call('POST', '/members', { token: ws.token, body: { email: 'i@x.test', name: 'I', role: 'team' }, headers: { 'idempotency-key': 'm-1' } });
  t.same([dupMember.status, dupAgain.status], [201, 201], 'the retry after a timeout sees the same 201, not a duplicate 400');
  const other = await server.workspace();
  const otherAccount = await server.call('POST', '/members', { token: other.token, body: { email: 'i@x.test', name: 'I', role: 'team' }, headers: { 'idempotency-key': 'm-1' } });
  t.not(otherAccount.body.memberId, dupMember.body.memberId, 'keys are per token');
});

t.test('X-Correlation-Id is echoed and stamped on the events', async (t) => {
  const server = await startServer(t);
  const ws = await server.workspace();
  const created = await server.call('POST', '/comments/create', { token: ws.token, body: { domainId: ws.publicKey, text: 'c', url: `${ws.domain}/` }, headers: { 'x-correlation-id': 'trace-42' } });
  t.equal(created.headers.get('x-correlation-id'), 'trace-42');
  const history = await server.call('GET', `/comments/${created.body.id}/history`, { token: ws.token });
  t.equal(history.body.events[0].correlationId, 'trace-42');
});
