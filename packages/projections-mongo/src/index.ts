export { createMongoProjectionStore, type MongoProjectionStoreOptions } from './mongo.ts';
