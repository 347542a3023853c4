export * from './decider.js';
export * from './errors.js';
export * from './normalize.js';
export * from './account.js';
export * from './project.js';
export * from './comment.js';
export * from './tokens.js';
