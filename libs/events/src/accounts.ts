import { z } from 'zod';
import { DefaultProjectAccess, IntegrationScope, MemberRole } from './values.js';

// Stream account-{accountId}: the workspace, its members and its project registry.
// Members and projects live here because their uniqueness rules (one member per email,
// one project per domain) are decided against the whole workspace.

export const AccountCreated = z.object({
  accountId: z.string(),
  name: z.string(),
  ownerMemberId: z.string(),
  ownerEmail: z.string(),
  ownerName: z.string(),
});
export const AccountSettingsChanged = z.object({
  accountId: z.string(),
  defaultProjectAccess: DefaultProjectAccess.optional(),
  ssoRequired: z.boolean().optional(),
});
export const ProjectCreated = z.object({
  accountId: z.string(),
  projectId: z.string(),
  publicKey: z.string(),
  domain: z.string(),
  name: z.string(),
});
export const MemberCreated = z.object({
  accountId: z.string(),
  memberId: z.string(),
  email: z.string(),
  name: z.string(),
  role: MemberRole,
  /** Projects granted at creation: the given domainId, or the workspace default. */
  projectIds: z.array(z.string()),
});
export const MemberAssigned = z.object({ accountId: z.string(), memberId: z.string(), projectId: z.string() });
export const MemberUnassigned = z.object({ accountId: z.string(), memberId: z.string(), projectId: z.string() });
export const MemberRemoved = z.object({ accountId: z.string(), memberId: z.string(), email: z.string() });
export const MemberApprovedForCompanyLogin = z.object({ accountId: z.string(), memberId: z.string() });

// Stream integrationToken-{tokenHash}: looked up by the hash of the presented token.
export const IntegrationTokenIssued = z.object({
  accountId: z.string(),
  tokenId: z.string(),
  tokenHash: z.string(),
  scopes: z.array(IntegrationScope).min(1),
});
export const IntegrationTokenRevoked = z.object({ accountId: z.string(), tokenId: z.string(), tokenHash: z.string() });
