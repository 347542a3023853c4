export { createWebhookRelay, type WebhookRelay } from './relay.js';
export { createEmbeddedBus } from './bus/embeddedBus.js';
export type { EventBus, BusBatch, BusHandlers, Commit } from './bus/eventBus.js';
export { DELIVERIES, replayed, type Delivery, type Attempt } from './deliveries.js';
export { signatureHeaders } from './signing.js';
export { createKafkaBus } from './bus/kafkaBus.js';
