export { createPostgresEventStore, type PostgresEventStoreOptions } from './postgres.ts';
