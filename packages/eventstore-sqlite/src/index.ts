export { createSqliteEventStore, type SqliteEventStoreOptions } from './sqlite.ts';
