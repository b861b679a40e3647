import { eventStoreConformance } from '@parcel-logistics/eventstore/conformance';
import { createPostgresEventStore } from './postgres.ts';
import { pgTestUrl, tempSchema } from '@parcel-logistics/postgres/scratch';

const url = pgTestUrl();

eventStoreConformance('postgres', async () => {
  const { schema, drop } = tempSchema(url);
  const open = () =>
    createPostgresEventStore({ connectionString: url, schema, poolSize: 4, onHandlerError: () => undefined });
  const store = await open();
  return {
    store,
    reopen: open,
    cleanup: async () => {
      await store.close();
      await drop();
    },
  };
});
