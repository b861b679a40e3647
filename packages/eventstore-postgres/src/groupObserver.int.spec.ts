/** The `onCommit(groupSize)` hook of the PostgreSQL store: every append call is counted in exactly one group. */
import { describe, expect, it } from '@jest/globals';
import { appendInGroups, events, observed } from '@parcel-logistics/eventstore/conformance';
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

  it('the appends asked for in one turn of an idle store commit in one group, the first included', async () => {
    const url = pgTestUrl();
    const { schema, drop } = tempSchema(url);
    const { sizes, onCommit } = observed();
    const store = await createPostgresEventStore({ connectionString: url, schema, onCommit });
    try {
      await store.append({ streamName: 'first', expectedRevision: 'no_stream', events: events(1) });
      sizes.length = 0;
      await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          store.append({ streamName: `turn-${i}`, expectedRevision: 'no_stream', events: events(1) }),
        ),
      );
      expect(sizes).toEqual([5]);
    } finally {
      await store.close();
      await drop();
    }
  });
});
