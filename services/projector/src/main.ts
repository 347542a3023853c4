import { createHttpApp } from '@feedback/http';
import { boot, healthRoute, onShutdown, openEventStore, openReadStore } from '@feedback/runtime';
import { projections } from './projections/index.js';
import { createProjector } from './projector.js';

// The projector on its own: follows the whole log and keeps every read model current.
await boot('projector', async (config, logger) => {
  const eventStore = openEventStore(config);
  const readStore = await openReadStore(config);
  const projector = createProjector({ eventStore, readStore, projections, logger, batchSize: config.PROJECTOR_BATCH_SIZE });
  await projector.start();
  const app = await createHttpApp({ logger, bodyLimit: config.BODY_LIMIT_BYTES, rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE });
  healthRoute(app, { service: 'projector', eventStore, readStore });
  await app.listen({ port: config.PORT, host: config.HOST });
  onShutdown(logger, config.SHUTDOWN_TIMEOUT_MS, [() => app.close(), () => projector.stop(), () => readStore.close(), () => eventStore.close()]);
});
