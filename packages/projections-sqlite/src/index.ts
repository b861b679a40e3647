export { createSqliteProjectionStore, vacuumSqliteProjections, type SqliteProjectionStoreOptions } from './sqlite.ts';
