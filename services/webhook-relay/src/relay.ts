import { projectDecider } from '@feedback/domain';
import { streams } from '@feedback/events';
import { handleCommand, type EventStore } from '@feedback/event-store';
import { relayLagEvents, type Config, type Logger } from '@feedback/platform';
import type { ReadStore } from '@feedback/read-store';
import type { BusBatch, EventBus } from './bus/eventBus.js';
import { DELIVERIES, deliveryIndexes } from './deliveries.js';
import { createDispatcher, type Dispatcher } from './dispatcher.js';
import { createIntake } from './intake.js';

export interface WebhookRelay {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Null when the relay consumes and sends, else what is wrong (for /health). */
  problem(): string | null;
  dispatcher: Dispatcher;
}

export interface WebhookRelayOptions {
  bus: EventBus;
  /** The relay's own store: its state per project and comment, and every delivery. */
  store: ReadStore;
  /** Only to record that an endpoint answered 410 Gone. */
  eventStore: EventStore;
  config: Pick<Config, 'WEBHOOK_RETRY_SCHEDULE' | 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_CONCURRENCY' | 'WEBHOOK_ALLOW_PRIVATE_TARGETS'>;
  logger: Logger;
}

/** The webhook relay: consumes the log from the bus, keeps its own state, sends deliveries. */
export function createWebhookRelay(options: WebhookRelayOptions): WebhookRelay {
  const { bus, store, eventStore, config, logger } = options;
  const dispatcher = createDispatcher({
    store,
    logger,
    schedule: config.WEBHOOK_RETRY_SCHEDULE,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    concurrency: config.WEBHOOK_CONCURRENCY,
    allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    async onGone(delivery, statusCode) {
      logger.warn({ webhookId: delivery.webhookId, deliveryId: delivery.id }, 'endpoint answered 410 Gone; disabling the webhook');
      await handleCommand(
        eventStore,
        streams.project(delivery.projectId),
        projectDecider,
        { type: 'DisableWebhookByReceiver', projectId: delivery.projectId, webhookId: delivery.webhookId, deliveryId: delivery.id, statusCode },
        { actor: { type: 'system', id: 'webhook-relay', name: 'Webhook relay' }, correlationId: delivery.correlationId },
      );
    },
  });
  const intake = createIntake(store, dispatcher);
  let consumed = 0;
  const handle = async (batch: BusBatch) => {
    await intake(batch);
    consumed = Math.max(consumed, batch.commits.at(-1)?.events.at(-1)?.position ?? 0);
  };

  return {
    dispatcher,
    async start() {
      await store.ensureIndexes(DELIVERIES, deliveryIndexes);
      relayLagEvents.measureWith(async () => Math.max(0, (await eventStore.headPosition()) - Math.max(consumed, (await bus.handedOver()) ?? 0)));
      dispatcher.start();
      await bus.start({
        handle,
        assigned(partitions) {
          logger.info({ partitions }, 'partitions assigned');
          dispatcher.own(partitions);
        },
      });
      logger.info('webhook relay started');
    },
    async stop() {
      await bus.stop();
      await dispatcher.stop();
    },
    problem: () => bus.problem(),
  };
}
