import { join } from 'node:path';
import { getKurrentDBEventStore, getSqliteEventStore, type EventStore } from '@feedback/event-store';
import type { Config } from '@feedback/platform';
import { getMongoReadStore, getSqliteReadStore, type ReadStore } from '@feedback/read-store';

/** Where each port's adapter comes from: one switch per backend, read from the configuration. */
export function openEventStore(config: Config): EventStore {
  if (config.EVENT_STORE === 'kurrentdb') return getKurrentDBEventStore({ connectionString: config.KURRENTDB_URL! });
  return getSqliteEventStore({ path: join(config.DATA_DIR, 'events.sqlite') });
}

export async function openReadStore(config: Config): Promise<ReadStore> {
  if (config.READ_STORE === 'mongodb') return getMongoReadStore({ url: config.MONGODB_URL!, database: config.MONGODB_DATABASE });
  return getSqliteReadStore({ path: join(config.DATA_DIR, 'read-models.sqlite') });
}
