export { createSqliteEventStore, type SqliteEventStoreOptions } from './sqlite.ts';
export { createSqliteEventRewriter } from './sqliteRewriter.ts';
