export * from './port.ts';
export { createSqliteProjectionStore, type SqliteProjectionStoreOptions } from './sqlite.ts';
export { createMongoProjectionStore, type MongoProjectionStoreOptions } from './mongo.ts';
