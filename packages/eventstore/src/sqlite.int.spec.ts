import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventStoreConformance } from './conformance.ts';
import { createSqliteEventStore, type SqliteEventStoreOptions } from './sqlite.ts';

const quiet: Pick<SqliteEventStoreOptions, 'onHandlerError'> = { onHandlerError: () => undefined };

async function tempFile(): Promise<{ file: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'parcel-eventstore-'));
  return { file: join(dir, 'events.db'), remove: () => rm(dir, { recursive: true, force: true }) };
}

eventStoreConformance('sqlite file', async () => {
  const { file, remove } = await tempFile();
  const store = createSqliteEventStore({ file, ...quiet });
  return {
    store,
    reopen: async () => createSqliteEventStore({ file, ...quiet }),
    cleanup: async () => {
      await store.close();
      await remove();
    },
  };
});

eventStoreConformance('sqlite :memory:', async () => {
  const store = createSqliteEventStore({ file: ':memory:', ...quiet });
  return { store, cleanup: () => store.close() };
});
