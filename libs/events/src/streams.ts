/** Stream names: `{category}-{id}`. The category groups streams for readers and for Kafka keys. */
export const streams = {
  account: (accountId: string) => `account-${accountId}`,
  project: (projectId: string) => `project-${projectId}`,
  comment: (commentId: string) => `comment-${commentId}`,
  commentNumbers: (projectId: string) => `commentNumbers-${projectId}`,
  integrationToken: (tokenHash: string) => `integrationToken-${tokenHash}`,
  inboundToken: (tokenHash: string) => `inboundToken-${tokenHash}`,
  clientLoginToken: (tokenHash: string) => `clientLoginToken-${tokenHash}`,
  idempotency: (keyHash: string) => `idempotency-${keyHash}`,
} as const;

export type StreamCategory = keyof typeof streams;

export function streamCategory(stream: string): string {
  const dash = stream.indexOf('-');
  return dash === -1 ? stream : stream.slice(0, dash);
}

export function streamId(stream: string): string {
  const dash = stream.indexOf('-');
  return dash === -1 ? '' : stream.slice(dash + 1);
}
