export * from './queryApi.js';
export * from './deps.js';
