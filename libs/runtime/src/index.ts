export * from './backends.js';
export * from './health.js';
export * from './shutdown.js';
export * from './boot.js';
