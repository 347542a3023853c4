import { accountDecider, fold, notFound, integrationTokenState, type AccountCommand } from '@feedback/domain';
import { streams, type DefaultProjectAccess, type IntegrationScope, newId } from '@feedback/events';
import { appendIfUnchanged, appendNew, handleCommand, type CommandContext } from '@feedback/event-store';
import { hashToken, newToken } from '@feedback/platform';
import type { CommandDeps } from '../deps.js';

type Deps = Pick<CommandDeps, 'eventStore'>;

export function executeAccountCommand(deps: Deps, accountId: string, command: AccountCommand, context: CommandContext) {
  return handleCommand(deps.eventStore, streams.account(accountId), accountDecider, command, context);
}

/** A workspace with its owner, and a first integration token with every scope. */
export async function createAccount(deps: Deps, input: { ownerEmail: string; ownerName: string; name?: string }, context: CommandContext) {
  const accountId = newId();
  const ownerMemberId = newId();
  await executeAccountCommand(
    deps,
    accountId,
    { type: 'CreateAccount', accountId, ownerMemberId, ownerEmail: input.ownerEmail.trim(), ownerName: input.ownerName, name: input.name ?? `${input.ownerName}'s workspace` },
    context,
  );
  const { token, position } = await issueIntegrationToken(deps, accountId, ['read', 'write', 'settings'], context);
  return { accountId, ownerMemberId, token, position };
}

export async function issueIntegrationToken(deps: Deps, accountId: string, scopes: IntegrationScope[], context: CommandContext) {
  const state = await loadAccount(deps, accountId);
  if (!state.accountId) throw notFound('Account not found');
  const token = newToken('fbk');
  const tokenHash = hashToken(token);
  const position = await appendNew(deps.eventStore, streams.integrationToken(tokenHash), [
    { type: 'IntegrationTokenIssued', data: { accountId, tokenId: newId(), tokenHash, scopes: [...new Set(scopes)] } },
  ], context);
  return { token, position };
}

export async function revokeIntegrationToken(deps: Deps, accountId: string, token: string, context: CommandContext) {
  const tokenHash = hashToken(token);
  const stream = streams.integrationToken(tokenHash);
  const events = await deps.eventStore.readStream(stream);
  const state = integrationTokenState(events);
  if (!state.tokenId || state.accountId !== accountId) throw notFound('Token not found');
  if (state.revoked) return { position: null };
  const position = await appendIfUnchanged(
    deps.eventStore,
    stream,
    [{ type: 'IntegrationTokenRevoked', data: { accountId, tokenId: state.tokenId, tokenHash } }],
    events.length - 1,
    context,
  );
  return { position };
}

export async function changeAccountSettings(deps: Deps, accountId: string, settings: { defaultProjectAccess?: DefaultProjectAccess; ssoRequired?: boolean }, context: CommandContext) {
  const { position } = await executeAccountCommand(deps, accountId, { type: 'ChangeAccountSettings', ...settings }, context);
  const state = await loadAccount(deps, accountId);
  return { position, settings: { defaultProjectAccess: state.defaultProjectAccess, ssoRequired: state.ssoRequired } };
}

export async function loadAccount(deps: Deps, accountId: string) {
  return fold(accountDecider, await deps.eventStore.readStream(streams.account(accountId)));
}
