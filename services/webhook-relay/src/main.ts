import { createHttpApp } from '@feedback/http';
import { boot, healthRoute, onShutdown, openEventStore, openRelayStore } from '@feedback/runtime';
import { createEmbeddedBus } from './bus/embeddedBus.js';
import { createKafkaBus } from './bus/kafkaBus.js';
import { createWebhookRelay } from './relay.js';

// The webhook relay on its own. With BUS=kafka run as many as you like: they share the
// partitions (and the deliveries that belong to them) through the consumer group.
await boot('webhook-relay', async (config, logger) => {
  const eventStore = openEventStore(config);
  const store = await openRelayStore(config);
  const bus =
    config.BUS === 'kafka'
      ? createKafkaBus({ brokers: config.KAFKA_BROKERS!, clientId: config.KAFKA_CLIENT_ID, topic: config.KAFKA_TOPIC, partitions: config.KAFKA_PARTITIONS, eventStore, store, logger })
      : createEmbeddedBus({ eventStore, store, logger });
  const relay = createWebhookRelay({ bus, store, eventStore, config, logger });
  await relay.start();
  const app = await createHttpApp({ logger, bodyLimit: config.BODY_LIMIT_BYTES, rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE });
  healthRoute(app, { service: 'webhook-relay', eventStore, components: { bus: relay.problem } });
  await app.listen({ port: config.PORT, host: config.HOST });
  onShutdown(logger, config.SHUTDOWN_TIMEOUT_MS, [() => app.close(), () => relay.stop(), () => store.close(), () => eventStore.close()]);
});
