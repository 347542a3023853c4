import type { EventStore } from '@feedback/event-store';
import type { Config, Logger } from '@feedback/platform';
import type { ProjectionProgress, ReadStore } from '@feedback/read-store';

/** What the command side needs; built once per process and handed to routes and the CLI. */
export interface CommandDeps {
  eventStore: EventStore;
  /** Only to resolve a project's address (spec 2.1) and to know whether a workspace requires SSO. */
  readStore: ReadStore;
  /** The webhook relay's deliveries: a retry must name one that exists. */
  relayStore: ReadStore;
  progress: ProjectionProgress;
  config: Pick<Config, 'READ_YOUR_WRITES_TIMEOUT_MS' | 'UNPROJECTED_WRITES_LIMIT' | 'WEBHOOK_ALLOW_PRIVATE_TARGETS' | 'APP_URL'>;
  logger: Logger;
}
