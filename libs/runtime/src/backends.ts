import { join } from 'node:path';
import { getKurrentDBEventStore, getSqliteEventStore, type EventStore } from '@feedback/event-store';
import type { Config } from '@feedback/platform';
import { followActiveGeneration, getMongoReadStore, getSqliteReadStore, type ReadStore } from '@feedback/read-store';

/** Where each port's adapter comes from: one switch per backend, read from the configuration. */
export function openEventStore(config: Config, use: 'serve' | 'replay' = 'serve'): EventStore {
  if (config.EVENT_STORE === 'kurrentdb') return getKurrentDBEventStore({ connectionString: config.KURRENTDB_URL! });
  // A replay reads each page of the log once: a page cache would only hold memory (the
  // rebuild's peak RSS measured 30–60 MB lower with 2 MiB than with the default 64).
  return getSqliteEventStore({ path: join(config.DATA_DIR, 'events.sqlite'), cacheMb: use === 'replay' ? 2 : undefined });
}

/** The read store as configured, at its base generation (what a rebuild writes beside). */
export async function openBaseReadStore(config: Config): Promise<ReadStore> {
  if (config.READ_STORE === 'mongodb') return getMongoReadStore({ url: config.MONGODB_URL!, database: config.MONGODB_DATABASE });
  // Every authenticated request reads its token and its account.
  return getSqliteReadStore({ path: join(config.DATA_DIR, 'read-models.sqlite'), cachedCollections: ['integrationTokens', 'accounts'] });
}

/** The read store every service uses: it follows the generation a rebuild switched to. */
export async function openReadStore(config: Config): Promise<ReadStore> {
  return followActiveGeneration(await openBaseReadStore(config));
}

/**
 * The webhook relay's store: its state and its deliveries. Not a projection, so a rebuild never
 * touches it; the query API lists deliveries from it.
 */
export async function openRelayStore(config: Config): Promise<ReadStore> {
  if (config.READ_STORE === 'mongodb') return getMongoReadStore({ url: config.MONGODB_URL!, database: config.MONGODB_DATABASE, prefix: 'relay' });
  return getSqliteReadStore({ path: join(config.DATA_DIR, 'relay.sqlite'), prefix: 'relay' });
}
