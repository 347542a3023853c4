import type { EventStore } from '@feedback/event-store';
import type { Logger } from '@feedback/platform';
import type { ReadStore } from '@feedback/read-store';

export interface QueryDeps {
  readStore: ReadStore;
  /** Read only for a comment's history: the audit trail is the comment's own stream. */
  eventStore: Pick<EventStore, 'readStream'>;
  /** The webhook relay's deliveries, for the delivery log. */
  relayStore: ReadStore;
  logger: Logger;
}
