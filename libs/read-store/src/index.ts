export * from './readStore.js';
export { getSqliteReadStore } from './sqlite/sqliteReadStore.js';
export { getMongoReadStore } from './mongodb/mongoReadStore.js';
export * from './projectionProgress.js';
export * from './followActiveGeneration.js';
