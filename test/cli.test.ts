import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from './support/ports.js';
import { exited, runTs, startTs } from './support/processes.js';

const dataDir = mkdtempSync(join(tmpdir(), 'feedback-cli-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
// No DNS in the test sandbox: target checks are covered in projects.test.ts with literal addresses.
const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
const cli = async (...args: string[]) => {
  const run = await runTs('apps/cli/src/main.ts', args, env);
  return { ...run, json: run.code === 0 ? JSON.parse(run.stdout) : null };
};

t.test('the CLI bootstraps a workspace that a running server recognises', async (t) => {
  const port = await freePort();
  const server = startTs('apps/embedded/src/main.ts', { ...env, PORT: String(port), HOST: '127.0.0.1' });
  t.teardown(() => {
    server.kill('SIGKILL');
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${base}/health`)).ok, 30_000, 'the server to answer /health');

  const account = await cli('account', 'create', '--owner-email', 'owner@cli.test', '--owner-name', 'Owner', '--name', 'CLI Co');
  t.equal(account.code, 0, account.stderr);
  t.same(Object.keys(account.json).sort(), ['accountId', 'ownerMemberId', 'token']);
  t.equal(account.stdout.trim().split('\n').length, 1, 'one JSON object on stdout');
  const { accountId, token } = account.json;

  const project = await cli('project', 'create', '--account', accountId, '--domain', 'https://cli.example.com', '--name', 'CLI site');
  t.equal(project.code, 0, project.stderr);
  t.match(project.json, { projectId: String, publicKey: /^sc_/, domain: 'https://cli.example.com' });

  const headers = { 'x-integration-token': token };
  const domains = await fetch(`${base}/api/external/domains`, { headers }).then((r) => r.json() as Promise<any>);
  t.same(domains.domains.map((d: any) => d.projectId), [project.json.projectId], 'the server sees what the CLI wrote');

  const readOnly = await cli('token', 'create', '--account', accountId, '--scopes', 'read');
  t.equal(readOnly.code, 0);
  t.equal((await fetch(`${base}/api/external/members`, { headers: { 'x-integration-token': readOnly.json.token } })).status, 200);
  const write = await fetch(`${base}/api/external/members`, { method: 'POST', headers: { 'x-integration-token': readOnly.json.token, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a@cli.test', name: 'A', role: 'team' }) });
  t.equal(write.status, 403);
  const revoked = await cli('token', 'revoke', '--account', accountId, '--token', readOnly.json.token);
  t.same(revoked.json, { revoked: true });
  t.equal((await fetch(`${base}/api/external/members`, { headers: { 'x-integration-token': readOnly.json.token } })).status, 401, 'revoked at once');

  const inbound = await cli('inbound-token', 'create', '--account', accountId, '--project', project.json.projectId, '--actions', 'reply,status_update');
  t.match(inbound.json, { token: String });
  const hook = await cli('webhook', 'create', '--project', project.json.projectId, '--event', 'comment', '--url', 'https://hooks.example.com/x', '--auth', 'basic:user:pa:ss', '--method', 'PUT');
  t.equal(hook.code, 0, hook.stderr);
  t.match(hook.json, { webhookId: String, signingSecret: /^whsec_/ });

  const member = await fetch(`${base}/api/external/members`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'sso@cli.test', name: 'S', role: 'team' }) }).then((r) => r.json() as Promise<any>);
  const approved = await cli('sso', 'approve', '--account', accountId, '--member', member.memberId);
  t.same(approved.json, { approved: true });
  const members = await fetch(`${base}/api/external/members`, { headers }).then((r) => r.json() as Promise<any>);
  t.equal(members.members.find((m: any) => m.memberId === member.memberId).companyLoginApproved, true);

  const settings = await cli('account', 'settings', '--account', accountId, '--default-access', 'none', '--sso-required', 'true');
  t.same(settings.json, { defaultProjectAccess: 'none', ssoRequired: true });
  const blocked = await fetch(`${base}/api/external/members`, { headers });
  t.same([blocked.status, await blocked.json()], [403, { error: 'Workspace requires SSO' }]);
  await cli('account', 'settings', '--account', accountId, '--sso-required', 'false');

  server.kill('SIGTERM');
  t.equal(await exited(server), 0, 'SIGTERM drains and exits cleanly');

  const again = startTs('apps/embedded/src/main.ts', { ...env, PORT: String(port), HOST: '127.0.0.1' });
  t.teardown(() => {
    again.kill('SIGKILL');
  });
  await waitFor(async () => (await fetch(`${base}/health`)).ok, 30_000, 'the restarted server');
  const after = await fetch(`${base}/api/external/domains`, { headers }).then((r) => r.json() as Promise<any>);
  t.same(after.domains.map((d: any) => d.name), ['CLI site'], 'a restart finds all data again');
  again.kill('SIGTERM');
  await exited(again);
});

t.test('CLI errors: a message on stderr and a non-zero exit', async (t) => {
  const unknown = await cli('frobnicate');
  t.not(unknown.code, 0);
  t.match(unknown.stderr, /unknown command 'frobnicate'/);
  t.equal(unknown.stdout, '');
  const missing = await cli('project', 'create', '--domain', 'x.example.com');
  t.not(missing.code, 0);
  t.match(missing.stderr, /--account is required/);
  const badFlag = await cli('token', 'create', '--account', 'A', '--bogus', 'x');
  t.not(badFlag.code, 0);
  t.match(badFlag.stderr, /bogus/);
  const noAccount = await cli('token', 'create', '--account', 'does-not-exist');
  t.equal(noAccount.code, 1);
  t.match(noAccount.stderr, /Account not found/);
  const badScope = await cli('token', 'create', '--account', 'A', '--scopes', 'read,admin');
  t.match(badScope.stderr, /admin/);
  const badAuth = await cli('webhook', 'create', '--project', 'P', '--event', 'comment', '--url', 'https://x.example.com', '--auth', 'magic');
  t.not(badAuth.code, 0);
});

t.test('a bad configuration value stops the service with one clear message', async (t) => {
  const run = await runTs('apps/embedded/src/main.ts', [], { ...env, PORT: 'eighty' });
  t.equal(run.code, 2);
  t.match(run.stderr, /PORT/);
  t.notMatch(run.stderr, /at .*\.ts:\d+/, 'no stack trace');
  const cliRun = await runTs('apps/cli/src/main.ts', ['token', 'create', '--account', 'A'], { ...env, READ_STORE: 'oracle' });
  t.not(cliRun.code, 0);
  t.match(cliRun.stderr, /READ_STORE/);
});
