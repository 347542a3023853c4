import type { EventStore } from '@feedback/event-store';
import type { Logger } from '@feedback/platform';
import type { ReadStore } from '@feedback/read-store';

export interface QueryDeps {
  readStore: ReadStore;
  /** Read only for a comment's history: the audit trail is the comment's own stream. */
  eventStore: Pick<EventStore, 'readStream'>;
  logger: Logger;
}
