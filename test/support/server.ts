import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { ulid } from 'ulid';
import { createAccount, createProject, issueInboundToken, issueIntegrationToken, changeAccountSettings } from '@feedback/command-api';
import { createEmbeddedServer } from '@feedback/embedded';
import type { InboundAction, IntegrationScope } from '@feedback/events';
import { createLogger, loadConfig, type Config } from '@feedback/platform';
import { openEventStore, openReadStore, openRelayStore } from '@feedback/runtime';

export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestServer {
  baseUrl: string;
  appUrl: string;
  config: Config;
  /** A request to {base_url} (/api/external) unless the path starts with /api/ or /health. */
  call<T = any>(method: string, path: string, options?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<Response<T>>;
  /** A workspace with an owner, a project and a token with every scope (what the CLI does). */
  workspace(options?: { domain?: string; scopes?: IntegrationScope[] }): Promise<Workspace>;
  operator: { actor: { type: 'operator'; id: string }; correlationId: string };
  deps: { eventStore: ReturnType<typeof openEventStore>; readStore: Awaited<ReturnType<typeof openReadStore>>; relayStore: Awaited<ReturnType<typeof openRelayStore>> };
}

export interface Workspace {
  accountId: string;
  ownerMemberId: string;
  token: string;
  projectId: string;
  publicKey: string;
  domain: string;
  tokenWith(scopes: IntegrationScope[]): Promise<string>;
  inboundToken(actions: InboundAction[], scope?: 'project' | 'account'): Promise<string>;
  settings(settings: { defaultProjectAccess?: 'all' | 'none'; ssoRequired?: boolean }): Promise<void>;
  project(domain: string): Promise<{ projectId: string; publicKey: string; domain: string }>;
}

let counter = 0;

/** A real embedded server, listening on loopback, with its own data directory. Stopped on teardown. */
export async function startServer(t: Test, env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'feedback-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...env });
  const logger = createLogger(config.LOG_LEVEL, 'test');
  const eventStore = openEventStore(config);
  const readStore = await openReadStore(config);
  const relayStore = await openRelayStore(config);
  const server = await createEmbeddedServer(config, logger, { eventStore, readStore, relayStore });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const appUrl = `http://127.0.0.1:${port}`;
  t.teardown(async () => {
    await server.close();
    await relayStore.close();
    await readStore.close();
    await eventStore.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const operator = { actor: { type: 'operator' as const, id: 'test' }, correlationId: ulid() };
  const deps = { eventStore, readStore, relayStore };
  const catchUp = () => server.projector.catchUp();

  const call: TestServer['call'] = async (method, path, options = {}) => {
    const url = path.startsWith('/api/') || path.startsWith('/health') ? `${appUrl}${path}` : `${appUrl}/api/external${path}`;
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers['x-integration-token'] = options.token;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // leave as text
    }
    return { status: response.status, headers: response.headers, body: parsed as any };
  };

  return {
    baseUrl: `${appUrl}/api/external`,
    appUrl,
    config,
    call,
    operator,
    deps,
    async workspace(options = {}) {
      const n = counter++;
      const { accountId, ownerMemberId, token } = await createAccount(deps, { ownerEmail: `owner${n}@example.com`, ownerName: `Owner ${n}` }, operator);
      const domain = options.domain ?? `https://site${n}-${process.pid}.example.com`;
      const { project } = await createProject(deps, accountId, { domain }, operator);
      await catchUp();
      const workspace: Workspace = {
        accountId,
        ownerMemberId,
        token: options.scopes ? (await issueIntegrationToken(deps, accountId, options.scopes, operator)).token : token,
        projectId: project.projectId,
        publicKey: project.publicKey,
        domain: project.domain,
        async tokenWith(scopes) {
          const issued = await issueIntegrationToken(deps, accountId, scopes, operator);
          await catchUp();
          return issued.token;
        },
        async inboundToken(actions, scope = 'project') {
          const issued = await issueInboundToken(deps, accountId, scope === 'project' ? project.projectId : null, actions, operator);
          await catchUp();
          return issued.token;
        },
        async settings(settings) {
          await changeAccountSettings(deps, accountId, settings, operator);
          await catchUp();
        },
        async project(projectDomain) {
          const created = await createProject(deps, accountId, { domain: projectDomain }, operator);
          await catchUp();
          return created.project;
        },
      };
      await catchUp();
      return workspace;
    },
  };
}
