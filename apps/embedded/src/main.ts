import { boot, onShutdown, openEventStore, openReadStore, openRelayStore } from '@feedback/runtime';
import { createEmbeddedServer } from './server.js';

// `npm start`: everything in one process, data in SQLite files under DATA_DIR.
await boot('feedback', async (config, logger) => {
  const eventStore = openEventStore(config);
  const readStore = await openReadStore(config);
  const relayStore = await openRelayStore(config);
  const server = await createEmbeddedServer(config, logger, { eventStore, readStore, relayStore });
  await server.app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ port: config.PORT, dataDir: config.DATA_DIR }, 'feedback service listening');
  onShutdown(logger, config.SHUTDOWN_TIMEOUT_MS, [() => server.close(), () => relayStore.close(), () => readStore.close(), () => eventStore.close()]);
});
