import { registerCommandApi } from '@feedback/command-api';
import type { EventStore } from '@feedback/event-store';
import { createHttpApp, type HttpApp } from '@feedback/http';
import type { Config, Logger } from '@feedback/platform';
import { createProjector, MAIN_CHECKPOINT, projections, type Projector } from '@feedback/projector';
import { registerQueryApi } from '@feedback/query-api';
import { createProjectionProgress, type ReadStore } from '@feedback/read-store';
import { healthRoute } from '@feedback/runtime';

export interface EmbeddedServer {
  app: HttpApp;
  projector: Projector;
  close(): Promise<void>;
}

/**
 * The embedded default: command API, query API and projector in one process on one port,
 * sharing one event store and one read store. The webhook relay joins them once it exists.
 */
export async function createEmbeddedServer(config: Config, logger: Logger, eventStore: EventStore, readStore: ReadStore): Promise<EmbeddedServer> {
  const progress = createProjectionProgress(readStore, MAIN_CHECKPOINT);
  const projector = createProjector({ eventStore, readStore, projections, logger: logger.child({ service: 'projector' }), batchSize: config.PROJECTOR_BATCH_SIZE, onCommitted: progress.advanced });
  await projector.start();

  const app = await createHttpApp({ logger, bodyLimit: config.BODY_LIMIT_BYTES, rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE });
  healthRoute(app, { service: 'embedded', eventStore, readStore });
  await registerCommandApi(app, { eventStore, readStore, progress, config, logger: logger.child({ service: 'command-api' }) });
  await registerQueryApi(app, { eventStore, readStore, logger: logger.child({ service: 'query-api' }) });
  await app.ready();

  return {
    app,
    projector,
    async close() {
      await app.close();
      await projector.stop();
    },
  };
}
