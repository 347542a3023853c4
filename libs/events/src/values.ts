import { z } from 'zod';

/** Values shared by events and the API: one name per concept everywhere. */
export const commentStatuses = ['todo', 'in_progress', 'review', 'rework', 'on_hold', 'blocked', 'done', 'cancelled', 'wont_fix'] as const;
export const CommentStatus = z.enum(commentStatuses);
export type CommentStatus = z.infer<typeof CommentStatus>;

export const commentPriorities = ['low', 'normal', 'high', 'urgent'] as const;
export const CommentPriority = z.enum(commentPriorities);
export type CommentPriority = z.infer<typeof CommentPriority>;

/** An email address as people type it: surrounding blanks dropped, case kept for display. */
export const EmailAddress = z.string().trim().max(320).pipe(z.email());

export const MemberRole = z.enum(['user', 'team']);
export type MemberRole = z.infer<typeof MemberRole>;

export const IntegrationScope = z.enum(['read', 'write', 'settings']);
export type IntegrationScope = z.infer<typeof IntegrationScope>;

export const InboundAction = z.enum(['reply', 'status_update', 'delete']);
export type InboundAction = z.infer<typeof InboundAction>;

export const WebhookTrigger = z.enum(['comment', 'reply', 'status_update']);
export type WebhookTrigger = z.infer<typeof WebhookTrigger>;

export const WebhookAuth = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('none') }),
  z.object({ mode: z.literal('bearer'), token: z.string().min(1) }),
  z.object({ mode: z.literal('basic'), username: z.string().min(1), password: z.string() }),
]);
export type WebhookAuth = z.infer<typeof WebhookAuth>;

export const DefaultProjectAccess = z.enum(['all', 'none']);
export type DefaultProjectAccess = z.infer<typeof DefaultProjectAccess>;

export const ConsoleError = z.object({
  kind: z.string().max(100),
  message: z.string().max(10_000),
  source: z.string().max(2_000),
  line: z.number().int().nonnegative(),
  col: z.number().int().nonnegative(),
  at: z.iso.datetime({ offset: true }),
});
export type ConsoleError = z.infer<typeof ConsoleError>;

export const Attachment = z.object({
  type: z.enum(['image', 'file']),
  url: z.url(),
  name: z.string().min(1).max(500),
});
export type Attachment = z.infer<typeof Attachment>;

export const CommentMetadata = z.object({
  browser: z.string().max(500).optional(),
  os: z.string().max(500).optional(),
  viewport: z.string().max(100).optional(),
  consoleErrors: z.array(ConsoleError).max(200).default([]),
  custom: z.record(z.string(), z.unknown()).optional(),
});
export type CommentMetadata = z.infer<typeof CommentMetadata>;

export const Person = z.object({ name: z.string().max(200).optional(), email: z.string().max(320).optional() });
export type Person = z.infer<typeof Person>;

export const DevBrief = z.object({
  status: z.string().min(1).max(50),
  title: z.string().min(1).max(500),
  summary: z.string().max(20_000),
  suggestedFix: z.string().max(20_000).optional(),
  kind: z.string().min(1).max(50),
  confidence: z.number().min(0).max(1),
  generatedAt: z.iso.datetime({ offset: true }),
});
export type DevBrief = z.infer<typeof DevBrief>;

export const textFormat = 'markdown-lite' as const;
