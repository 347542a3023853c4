export * from './eventStore.js';
export { getSqliteEventStore, type SqliteEventStoreOptions } from './sqlite/sqliteEventStore.js';
export { getKurrentDBEventStore } from './kurrentdb/kurrentdbEventStore.js';
export * from './handleCommand.js';
