/** The `onCommit(groupSize)` hook of the PostgreSQL store: every append call is counted in exactly one group. */
import { describe, it } from '@jest/globals';
import { appendInGroups, observed } from '@parcel-logistics/eventstore/conformance';
import { createPostgresEventStore } from './postgres.ts';
import { pgTestUrl, tempSchema } from '@parcel-logistics/postgres/scratch';

describe('postgres onCommit', () => {
  it('each append call in one group, groups of more than one', async () => {
    const url = pgTestUrl();
    const { schema, drop } = tempSchema(url);
    const { sizes, onCommit } = observed();
    const store = await createPostgresEventStore({
      connectionString: url,
      schema,
      poolSize: 2,
      onCommit,
      onHandlerError: () => undefined,
    });
    try {
      await appendInGroups(store, sizes);
    } finally {
      await store.close();
      await drop();
    }
  });
});
