import type { TokenDirectory } from '@feedback/http';
import type { AccountDoc, IntegrationTokenDoc } from '@feedback/projector';
import type { ReadStore } from '@feedback/read-store';

/** The query side recognises integration tokens from its read model. */
export function readModelTokenDirectory(readStore: ReadStore): TokenDirectory {
  return {
    async findByHash(tokenHash) {
      const doc = await readStore.get<IntegrationTokenDoc>('integrationTokens', tokenHash);
      if (!doc || doc.revoked) return null;
      return { accountId: doc.accountId, tokenId: doc.tokenId, scopes: doc.scopes };
    },
    async ssoRequired(accountId) {
      return (await readStore.get<AccountDoc>('accounts', accountId))?.ssoRequired ?? false;
    },
  };
}
