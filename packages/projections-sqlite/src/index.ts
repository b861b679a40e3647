export { createSqliteProjectionStore, type SqliteProjectionStoreOptions } from './sqlite.ts';
