export * from './values.js';
export * from './envelope.js';
export * from './catalogue.js';
export * from './streams.js';
export * from './codec.js';
export * from './ids.js';
