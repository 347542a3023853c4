import { fold, inboundTokenState, invalid, notFound, projectDecider, type ProjectCommand, type Webhook, type WebhookChanges } from '@feedback/domain';
import { streams, type InboundAction, newId } from '@feedback/events';
import { appendIfUnchanged, appendNew, handleCommand, type CommandContext } from '@feedback/event-store';
import { hashToken, newPublicKey, newSigningSecret, newToken, webhookTargetProblem } from '@feedback/platform';
import type { CommandDeps } from '../deps.js';
import { executeAccountCommand, loadAccount } from '../accounts/accountCommands.js';

type Deps = Pick<CommandDeps, 'eventStore' | 'config'>;

/** A project's current state, folded from its stream. */
export async function loadProject(deps: Pick<CommandDeps, 'eventStore'>, projectId: string) {
  return fold(projectDecider, await deps.eventStore.readStream(streams.project(projectId)));
}

export function executeProjectCommand(deps: Pick<CommandDeps, 'eventStore'>, command: ProjectCommand, context: CommandContext) {
  return handleCommand(deps.eventStore, streams.project(command.projectId), projectDecider, command, context);
}

/** Accepts "example.com", "https://example.com/" or a full URL; keeps scheme and host. */
export function canonicalDomain(input: string): string {
  const trimmed = input.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw invalid('domain: must be a website address such as https://example.com');
  }
  if (!url.hostname.includes('.') && url.hostname !== 'localhost') throw invalid('domain: must be a website address such as https://example.com');
  return `${url.protocol}//${url.host}`;
}

export async function createProject(deps: Pick<CommandDeps, 'eventStore'>, accountId: string, input: { domain: string; name?: string }, context: CommandContext) {
  const projectId = newId();
  const publicKey = newPublicKey();
  const domain = canonicalDomain(input.domain);
  const name = input.name?.trim() || new URL(domain).hostname;
  const { position } = await executeAccountCommand(deps, accountId, { type: 'CreateProject', projectId, publicKey, domain, name }, context);
  return { project: { projectId, publicKey, domain, name }, position };
}

export async function updateProjectSettings(deps: Pick<CommandDeps, 'eventStore'>, projectId: string, input: { name?: string; settings?: Record<string, unknown> }, context: CommandContext) {
  let position: number | null = null;
  if (input.name !== undefined) position = (await executeProjectCommand(deps, { type: 'RenameProject', projectId, name: input.name }, context)).position ?? position;
  if (input.settings !== undefined) position = (await executeProjectCommand(deps, { type: 'ChangeProjectSettings', projectId, settings: input.settings }, context)).position ?? position;
  return { position };
}

export type WebhookInput = Omit<Webhook, 'webhookId' | 'signingSecret'>;

async function assertTarget(deps: Deps, url: string) {
  const problem = await webhookTargetProblem(url, deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS);
  if (problem) throw invalid(problem);
}

export async function createWebhook(deps: Deps, projectId: string, input: WebhookInput, context: CommandContext) {
  await assertTarget(deps, input.url);
  const webhookId = newId();
  const signingSecret = newSigningSecret();
  const { result, position } = await executeProjectCommand(deps, { type: 'CreateWebhook', projectId, webhookId, signingSecret, ...input }, context);
  return { webhook: result.webhook!, position };
}

export async function updateWebhook(deps: Deps, projectId: string, webhookId: string, changes: WebhookChanges, context: CommandContext) {
  if (changes.url !== undefined) await assertTarget(deps, changes.url);
  const { result, position } = await executeProjectCommand(deps, { type: 'UpdateWebhook', projectId, webhookId, changes }, context);
  return { webhook: result.webhook!, position };
}

export async function deleteWebhook(deps: Deps, projectId: string, webhookId: string, context: CommandContext) {
  return executeProjectCommand(deps, { type: 'DeleteWebhook', projectId, webhookId }, context);
}

/** An inbound-action token: project-scoped with a projectId, account-level without. */
export async function issueInboundToken(deps: Pick<CommandDeps, 'eventStore'>, accountId: string, projectId: string | null, actions: InboundAction[], context: CommandContext) {
  const account = await loadAccount(deps, accountId);
  if (!account.accountId) throw notFound('Account not found');
  if (projectId && !account.projects.has(projectId)) throw notFound('Project not found');
  const token = newToken('fbi');
  const tokenHash = hashToken(token);
  const tokenId = newId();
  const position = await appendNew(deps.eventStore, streams.inboundToken(tokenHash), [
    { type: 'InboundTokenIssued', data: { accountId, projectId, tokenId, tokenHash, actions: [...new Set(actions)] } },
  ], context);
  return { tokenId, token, position };
}

export async function revokeInboundToken(deps: Pick<CommandDeps, 'eventStore'>, tokenHash: string, expected: { accountId: string; projectId: string | null }, context: CommandContext) {
  const stream = streams.inboundToken(tokenHash);
  const events = await deps.eventStore.readStream(stream);
  const state = inboundTokenState(events);
  if (!state.tokenId || state.accountId !== expected.accountId || state.projectId !== expected.projectId) throw notFound('Inbound token not found');
  if (state.revoked) return { position: null };
  const position = await appendIfUnchanged(
    deps.eventStore,
    stream,
    [{ type: 'InboundTokenRevoked', data: { accountId: expected.accountId, projectId: state.projectId, tokenId: state.tokenId, tokenHash } }],
    events.length - 1,
    context,
  );
  return { position };
}
