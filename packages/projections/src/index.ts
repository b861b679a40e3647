export * from './port.ts';
export { createSqliteProjectionStore, type SqliteProjectionStoreOptions } from './sqlite.ts';
