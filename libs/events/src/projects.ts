import { z } from 'zod';
import { InboundAction, WebhookAuth, WebhookTrigger } from './values.js';

// Stream project-{projectId}: a project's settings, its clients and its webhooks.
// Clients live here because "one client per email in a project" is decided against it.

export const ProjectRenamed = z.object({ projectId: z.string(), name: z.string() });
export const ProjectSettingsChanged = z.object({
  projectId: z.string(),
  settings: z.record(z.string(), z.unknown()),
});

export const ClientAdded = z.object({
  projectId: z.string(),
  email: z.string(),
  name: z.string(),
  approved: z.boolean(),
});
export const ClientRenamed = z.object({ projectId: z.string(), email: z.string(), name: z.string() });
export const ClientApproved = z.object({ projectId: z.string(), email: z.string() });
export const ClientRevoked = z.object({ projectId: z.string(), email: z.string() });
export const ClientRemoved = z.object({ projectId: z.string(), email: z.string() });

export const WebhookCreated = z.object({
  projectId: z.string(),
  webhookId: z.string(),
  name: z.string(),
  event: WebhookTrigger,
  url: z.string(),
  method: z.enum(['POST', 'PUT']),
  auth: WebhookAuth,
  enabled: z.boolean(),
  /** whsec_ + base64 key; the relay signs with it. */
  signingSecret: z.string(),
});
export const WebhookUpdated = z.object({
  projectId: z.string(),
  webhookId: z.string(),
  name: z.string().optional(),
  event: WebhookTrigger.optional(),
  url: z.string().optional(),
  method: z.enum(['POST', 'PUT']).optional(),
  auth: WebhookAuth.optional(),
  enabled: z.boolean().optional(),
});
export const WebhookDeleted = z.object({ projectId: z.string(), webhookId: z.string() });
/** The relay got 410 Gone from the endpoint: the receiver asked never to be called again. */
export const WebhookDisabledByReceiver = z.object({
  projectId: z.string(),
  webhookId: z.string(),
  deliveryId: z.string(),
  statusCode: z.number().int(),
});
/** Someone asked the relay to send one delivery again (it keeps its webhook-id). */
export const WebhookDeliveryRetryRequested = z.object({ projectId: z.string(), webhookId: z.string(), deliveryId: z.string() });
/** Someone asked the relay to send again every delivery of a webhook whose event happened in [from, to]. */
export const WebhookReplayRequested = z.object({
  projectId: z.string(),
  webhookId: z.string(),
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }),
});

// Stream inboundToken-{tokenHash}
export const InboundTokenIssued = z.object({
  accountId: z.string(),
  /** null: an account-level token, which must name the domain in each request. */
  projectId: z.string().nullable(),
  tokenId: z.string(),
  tokenHash: z.string(),
  actions: z.array(InboundAction).min(1),
});
export const InboundTokenRevoked = z.object({
  accountId: z.string(),
  projectId: z.string().nullable(),
  tokenId: z.string(),
  tokenHash: z.string(),
});

// Stream clientLoginToken-{tokenHash}
export const ClientLoginTokenIssued = z.object({
  projectId: z.string(),
  email: z.string(),
  tokenHash: z.string(),
  /** The client's credential epoch when issued: revoking or removing the client moves it on. */
  clientEpoch: z.number().int(),
  expiresAt: z.iso.datetime(),
});
