import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IntegrationScope } from '@feedback/events';
import { hashToken } from '@feedback/platform';
import { ApiError } from './errors.js';

export interface Principal {
  accountId: string;
  tokenId: string;
  tokenHash: string;
  scopes: IntegrationScope[];
}

/** How a service recognises integration tokens: the command side reads token streams, the query side its read model. */
export interface TokenDirectory {
  findByHash(tokenHash: string): Promise<Omit<Principal, 'tokenHash'> | null>;
  ssoRequired(accountId: string): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyContextConfig {
    /** The action a route needs; the route is authenticated before its input is validated. */
    scope?: IntegrationScope;
  }
}

/**
 * Authenticates every route that declares `config.scope`, before validation: a caller without
 * a valid token learns nothing about what a valid body looks like.
 */
export function authenticateRoutes(app: FastifyInstance<any, any, any, any, any>, tokens: TokenDirectory) {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const scope = request.routeOptions.config.scope;
    if (scope) await authenticate(request, tokens, scope);
  });
}

/** The principal a scoped route was authenticated as. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`route ${request.routeOptions.url} declares no scope`);
  return request.principal;
}

const tokenHashes = new WeakMap<FastifyRequest, string | null>();

/** The SHA-256 of the request's X-Integration-Token, computed once per request (rate limit, then authentication). */
export function integrationTokenHash(request: FastifyRequest): string | null {
  let tokenHash = tokenHashes.get(request);
  if (tokenHash === undefined) {
    const token = request.headers['x-integration-token'];
    tokenHash = typeof token === 'string' && token.length > 0 ? hashToken(token) : null;
    tokenHashes.set(request, tokenHash);
  }
  return tokenHash;
}

/** X-Integration-Token → principal, or the error the client sees (decisions.md section 3). */
export async function authenticate(request: FastifyRequest, tokens: TokenDirectory, scope: IntegrationScope): Promise<Principal> {
  const tokenHash = integrationTokenHash(request);
  if (!tokenHash) throw new ApiError(401, 'Invalid integration token');
  const found = await tokens.findByHash(tokenHash);
  if (!found) throw new ApiError(401, 'Invalid integration token');
  if (await tokens.ssoRequired(found.accountId)) throw new ApiError(403, 'Workspace requires SSO');
  if (!found.scopes.includes(scope)) throw new ApiError(403, `Token lacks the '${scope}' action`);
  const principal = { ...found, tokenHash };
  request.principal = principal;
  return principal;
}
