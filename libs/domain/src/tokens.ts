import type { FeedbackEvent, InboundAction, IntegrationScope } from '@feedback/events';

// Tokens are streams named after the hash of their value, so presenting a token is one
// stream read: no read model, no lag between issuing a token and using it.

export interface IntegrationTokenState {
  accountId: string | null;
  tokenId: string | null;
  scopes: IntegrationScope[];
  revoked: boolean;
}
export function integrationTokenState(events: FeedbackEvent[]): IntegrationTokenState {
  const state: IntegrationTokenState = { accountId: null, tokenId: null, scopes: [], revoked: false };
  for (const event of events) {
    if (event.type === 'IntegrationTokenIssued') Object.assign(state, { accountId: event.data.accountId, tokenId: event.data.tokenId, scopes: event.data.scopes });
    if (event.type === 'IntegrationTokenRevoked') state.revoked = true;
  }
  return state;
}

export interface InboundTokenState {
  accountId: string | null;
  projectId: string | null;
  tokenId: string | null;
  actions: InboundAction[];
  revoked: boolean;
}
export function inboundTokenState(events: FeedbackEvent[]): InboundTokenState {
  const state: InboundTokenState = { accountId: null, projectId: null, tokenId: null, actions: [], revoked: false };
  for (const event of events) {
    if (event.type === 'InboundTokenIssued')
      Object.assign(state, { accountId: event.data.accountId, projectId: event.data.projectId, tokenId: event.data.tokenId, actions: event.data.actions });
    if (event.type === 'InboundTokenRevoked') state.revoked = true;
  }
  return state;
}

export interface ClientLoginTokenState {
  projectId: string;
  email: string;
  clientEpoch: number;
  expiresAt: string;
}
export function clientLoginTokenState(events: FeedbackEvent[]): ClientLoginTokenState | null {
  const issued = events.find((e) => e.type === 'ClientLoginTokenIssued');
  if (!issued || issued.type !== 'ClientLoginTokenIssued') return null;
  const { projectId, email, clientEpoch, expiresAt } = issued.data;
  return { projectId, email, clientEpoch, expiresAt };
}

export const CLIENT_LOGIN_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
