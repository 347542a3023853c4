import { createHttpApp } from '@feedback/http';
import { boot, healthRoute, onShutdown, openEventStore, openReadStore, openRelayStore } from '@feedback/runtime';
import { registerQueryApi } from './queryApi.js';

// The query API on its own: stateless, so any number of instances can serve one read store.
await boot('query-api', async (config, logger) => {
  const eventStore = openEventStore(config);
  const readStore = await openReadStore(config);
  const relayStore = await openRelayStore(config);
  const app = await createHttpApp({ logger, bodyLimit: config.BODY_LIMIT_BYTES, rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE });
  healthRoute(app, { service: 'query-api', readStore });
  await registerQueryApi(app, { readStore, relayStore, eventStore, logger });
  await app.listen({ port: config.PORT, host: config.HOST });
  onShutdown(logger, config.SHUTDOWN_TIMEOUT_MS, [() => app.close(), () => relayStore.close(), () => readStore.close(), () => eventStore.close()]);
});
