import { ConfigError, createLogger, loadConfig } from '@feedback/platform';
import { onShutdown, openEventStore, openReadStore } from '@feedback/runtime';
import { createEmbeddedServer } from './server.js';

// `npm start`: everything in one process, data in SQLite files under DATA_DIR.
let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
const logger = createLogger(config.LOG_LEVEL, 'feedback');
const eventStore = openEventStore(config);
const readStore = await openReadStore(config);
const server = await createEmbeddedServer(config, logger, eventStore, readStore);
await server.app.listen({ port: config.PORT, host: config.HOST });
logger.info({ port: config.PORT, dataDir: config.DATA_DIR }, 'feedback service listening');
onShutdown(logger, config.SHUTDOWN_TIMEOUT_MS, [() => server.close(), () => readStore.close(), () => eventStore.close()]);
