export * from './port.ts';
export * from './errors.ts';
export { createSqliteEventStore, type SqliteEventStoreOptions } from './sqlite.ts';
export { createPostgresEventStore, type PostgresEventStoreOptions } from './postgres.ts';
export {
  startCatchUpSubscription,
  warnHandlerError,
  type CatchUpOptions,
  type CatchUpSource,
  type CatchUpSubscription,
  type HandlerErrorListener,
} from './catchUpSubscription.ts';
