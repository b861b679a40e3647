import { eventStoreConformance } from '@parcel-logistics/eventstore/conformance';
import { createPostgresEventStore } from './postgres.ts';
import { pgTestUrl, storeInTempSchema } from '@parcel-logistics/postgres/scratch';

const url = pgTestUrl();

eventStoreConformance('postgres', () =>
  storeInTempSchema(url, (schema) =>
    createPostgresEventStore({ connectionString: url, schema, poolSize: 4, onHandlerError: () => undefined }),
  ),
);
