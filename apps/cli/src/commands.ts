import { z } from 'zod';
import { changeAccountSettings, createAccount, createProject, createWebhook, executeAccountCommand, issueInboundToken, issueIntegrationToken, revokeIntegrationToken } from '@feedback/command-api';
import { DomainError } from '@feedback/domain';
import { DefaultProjectAccess, InboundAction, IntegrationScope, WebhookTrigger, type WebhookAuth } from '@feedback/events';
import type { CommandContext, EventStore } from '@feedback/event-store';
import type { Config } from '@feedback/platform';
import type { ReadStore } from '@feedback/read-store';

export class UsageError extends Error {}

export interface CliDeps {
  eventStore: EventStore;
  readStore: ReadStore;
  config: Config;
  context: CommandContext;
}

type Flags = Record<string, string | undefined>;

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function list<T extends z.ZodType>(schema: T, value: string, flag: string): z.infer<T>[] {
  return value.split(',').map((item) => {
    const parsed = schema.safeParse(item.trim());
    if (!parsed.success) throw new UsageError(`--${flag}: '${item}' is not one of ${(schema as unknown as { options: string[] }).options.join(', ')}`);
    return parsed.data;
  });
}

function parseAuth(value: string | undefined): WebhookAuth {
  if (!value || value === 'none') return { mode: 'none' };
  if (value.startsWith('bearer:') && value.length > 7) return { mode: 'bearer', token: value.slice(7) };
  const basic = value.match(/^basic:([^:]+):(.*)$/);
  if (basic) return { mode: 'basic', username: basic[1]!, password: basic[2]! };
  throw new UsageError('--auth must be none, bearer:TOKEN or basic:USER:PASS');
}

function parseBoolean(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new UsageError(`--${flag} must be true or false`);
}

async function projectAccount(deps: CliDeps, projectId: string): Promise<string> {
  const project = await deps.readStore.get<{ id: string; accountId: string }>('projects', projectId);
  if (!project) throw new DomainError('not_found', 'Project not found');
  return project.accountId;
}

/** decisions.md section 2, one function per command; each returns the JSON object to print. */
export const cliCommands: Record<string, { usage: string; run: (deps: CliDeps, flags: Flags) => Promise<Record<string, unknown>> }> = {
  'account create': {
    usage: 'account create --owner-email E --owner-name N [--name W]',
    async run(deps, flags) {
      const ownerEmail = required(flags, 'owner-email');
      if (!z.email().safeParse(ownerEmail).success) throw new UsageError('--owner-email must be an email address');
      const { accountId, ownerMemberId, token } = await createAccount(deps, { ownerEmail, ownerName: required(flags, 'owner-name'), name: flags.name }, deps.context);
      return { accountId, ownerMemberId, token };
    },
  },
  'project create': {
    usage: 'project create --account A --domain URL [--name N]',
    async run(deps, flags) {
      const { project } = await createProject(deps, required(flags, 'account'), { domain: required(flags, 'domain'), name: flags.name }, deps.context);
      return { projectId: project.projectId, publicKey: project.publicKey, domain: project.domain };
    },
  },
  'token create': {
    usage: 'token create --account A [--scopes read,write,settings]',
    async run(deps, flags) {
      const scopes = list(IntegrationScope, flags.scopes ?? 'read,write,settings', 'scopes');
      const { token } = await issueIntegrationToken(deps, required(flags, 'account'), scopes, deps.context);
      return { token };
    },
  },
  'token revoke': {
    usage: 'token revoke --account A --token T',
    async run(deps, flags) {
      await revokeIntegrationToken(deps, required(flags, 'account'), required(flags, 'token'), deps.context);
      return { revoked: true };
    },
  },
  'inbound-token create': {
    usage: 'inbound-token create --account A [--project P] --actions reply,status_update,delete',
    async run(deps, flags) {
      const actions = list(InboundAction, required(flags, 'actions'), 'actions');
      const { token } = await issueInboundToken(deps, required(flags, 'account'), flags.project ?? null, actions, deps.context);
      return { token };
    },
  },
  'webhook create': {
    usage: 'webhook create --project P --event comment|reply|status_update --url U [--method POST|PUT] [--auth none|bearer:TOKEN|basic:USER:PASS] [--name N]',
    async run(deps, flags) {
      const projectId = required(flags, 'project');
      await projectAccount(deps, projectId);
      const event = WebhookTrigger.safeParse(required(flags, 'event'));
      if (!event.success) throw new UsageError('--event must be comment, reply or status_update');
      const method = (flags.method ?? 'POST').toUpperCase();
      if (method !== 'POST' && method !== 'PUT') throw new UsageError('--method must be POST or PUT');
      const url = required(flags, 'url');
      const { webhook } = await createWebhook(
        deps,
        projectId,
        { name: flags.name ?? `${event.data} webhook`, event: event.data, url, method, auth: parseAuth(flags.auth), enabled: true },
        deps.context,
      );
      return { webhookId: webhook.webhookId, signingSecret: webhook.signingSecret };
    },
  },
  'account settings': {
    usage: 'account settings --account A [--default-access all|none] [--sso-required true|false]',
    async run(deps, flags) {
      const access = flags['default-access'];
      const parsedAccess = access === undefined ? undefined : DefaultProjectAccess.safeParse(access);
      if (parsedAccess && !parsedAccess.success) throw new UsageError('--default-access must be all or none');
      const { settings } = await changeAccountSettings(
        deps,
        required(flags, 'account'),
        { defaultProjectAccess: parsedAccess?.data, ssoRequired: parseBoolean(flags['sso-required'], 'sso-required') },
        deps.context,
      );
      return settings;
    },
  },
  'sso approve': {
    usage: 'sso approve --account A --member M',
    async run(deps, flags) {
      await executeAccountCommand(deps, required(flags, 'account'), { type: 'ApproveMemberForCompanyLogin', memberId: required(flags, 'member') }, deps.context);
      return { approved: true };
    },
  },
};
