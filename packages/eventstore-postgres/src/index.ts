export { createPostgresEventStore, type PostgresEventStoreOptions } from './postgres.ts';
export { createPostgresEventRewriter } from './postgresRewriter.ts';
