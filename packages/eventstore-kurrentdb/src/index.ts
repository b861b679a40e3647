export { createKurrentDbEventStore, type KurrentDbEventStoreOptions } from './kurrentdb.ts';
