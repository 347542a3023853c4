import { createHttpApp } from '@feedback/http';
import { MAIN_CHECKPOINT } from '@feedback/projector';
import { createProjectionProgress } from '@feedback/read-store';
import { boot, healthRoute, onShutdown, openEventStore, openReadStore, openRelayStore } from '@feedback/runtime';
import { registerCommandApi } from './commandApi.js';

// The command API on its own: the only writer. Read-your-writes polls the projector's checkpoint.
await boot('command-api', async (config, logger) => {
  const eventStore = openEventStore(config);
  const readStore = await openReadStore(config);
  const relayStore = await openRelayStore(config);
  const progress = createProjectionProgress(readStore, MAIN_CHECKPOINT);
  const app = await createHttpApp({ logger, bodyLimit: config.BODY_LIMIT_BYTES, rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE });
  healthRoute(app, { service: 'command-api', eventStore, readStore });
  await registerCommandApi(app, { eventStore, readStore, relayStore, progress, config, logger });
  await app.listen({ port: config.PORT, host: config.HOST });
  onShutdown(logger, config.SHUTDOWN_TIMEOUT_MS, [() => app.close(), () => relayStore.close(), () => readStore.close(), () => eventStore.close()]);
});
