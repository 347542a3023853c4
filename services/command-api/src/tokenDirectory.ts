import { integrationTokenState } from '@feedback/domain';
import { streams } from '@feedback/events';
import type { TokenDirectory } from '@feedback/http';
import type { CommandDeps } from './deps.js';

/**
 * The command side reads a token's own stream: a token works the moment it is issued and stops
 * the moment it is revoked, with no projection in between.
 */
export function streamTokenDirectory(deps: Pick<CommandDeps, 'eventStore' | 'readStore'>): TokenDirectory {
  return {
    async findByHash(tokenHash) {
      const state = integrationTokenState(await deps.eventStore.readStream(streams.integrationToken(tokenHash)));
      if (!state.accountId || !state.tokenId || state.revoked) return null;
      return { accountId: state.accountId, tokenId: state.tokenId, scopes: state.scopes };
    },
    async ssoRequired(accountId) {
      const account = await deps.readStore.get<{ id: string; ssoRequired: boolean }>('accounts', accountId);
      return account?.ssoRequired ?? false;
    },
  };
}
