import { registerCommandApi } from '@feedback/command-api';
import type { EventStore } from '@feedback/event-store';
import { createHttpApp, type HttpApp } from '@feedback/http';
import type { Config, Logger } from '@feedback/platform';
import { createProjector, MAIN_CHECKPOINT, projections, type Projector } from '@feedback/projector';
import { registerQueryApi } from '@feedback/query-api';
import { createProjectionProgress, type ReadStore } from '@feedback/read-store';
import { healthRoute } from '@feedback/runtime';
import { createEmbeddedBus, createWebhookRelay, type WebhookRelay } from '@feedback/webhook-relay';

export interface EmbeddedStores {
  eventStore: EventStore;
  readStore: ReadStore;
  relayStore: ReadStore;
}

export interface EmbeddedServer {
  app: HttpApp;
  projector: Projector;
  relay: WebhookRelay;
  close(): Promise<void>;
}

/**
 * The embedded default: command API, query API, projector and webhook relay in one process on
 * one port, sharing one event store. The relay follows the log itself (the embedded bus).
 */
export async function createEmbeddedServer(config: Config, logger: Logger, stores: EmbeddedStores): Promise<EmbeddedServer> {
  const { eventStore, readStore, relayStore } = stores;
  const progress = createProjectionProgress(readStore, MAIN_CHECKPOINT);
  const projector = createProjector({ eventStore, readStore, projections, logger: logger.child({ service: 'projector' }), batchSize: config.PROJECTOR_BATCH_SIZE, onCommitted: progress.advanced });
  await projector.start();

  const relayLogger = logger.child({ service: 'webhook-relay' });
  const relay = createWebhookRelay({ bus: createEmbeddedBus({ eventStore, store: relayStore, logger: relayLogger }), store: relayStore, eventStore, config, logger: relayLogger });
  await relay.start();

  const app = await createHttpApp({ logger, bodyLimit: config.BODY_LIMIT_BYTES, rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE });
  healthRoute(app, { service: 'embedded', eventStore, readStore, components: { webhookRelay: relay.problem } });
  await registerCommandApi(app, { eventStore, readStore, relayStore, progress, config, logger: logger.child({ service: 'command-api' }) });
  await registerQueryApi(app, { eventStore, readStore, relayStore, logger: logger.child({ service: 'query-api' }) });
  await app.ready();

  return {
    app,
    projector,
    relay,
    async close() {
      await app.close();
      await relay.stop();
      await projector.stop();
    },
  };
}
