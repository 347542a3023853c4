import { accountsProjection } from './accounts.js';
import { clientsProjection } from './clients.js';
import { commentsProjection } from './comments.js';
import { inboundTokensProjection, integrationTokensProjection, webhooksProjection } from './integrations.js';
import { membersProjection } from './members.js';
import { projectsProjection } from './projects.js';

export * from './projection.js';
export * from './accounts.js';
export * from './projects.js';
export * from './members.js';
export * from './clients.js';
export * from './comments.js';
export * from './integrations.js';

/** Every read model the query API serves. */
export const projections = [
  accountsProjection,
  projectsProjection,
  membersProjection,
  clientsProjection,
  commentsProjection,
  integrationTokensProjection,
  inboundTokensProjection,
  webhooksProjection,
];
