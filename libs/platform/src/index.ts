export * from './config.js';
export * from './logger.js';
export * from './secrets.js';
export * from './webhookTargets.js';
export * from './metrics.js';
export * from './backoff.js';
