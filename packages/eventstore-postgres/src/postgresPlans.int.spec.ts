/**
 * The append's lookup is a named statement: PostgreSQL plans it once per connection and may keep
 * that plan for good. Planned while the log is empty, it must still read through the indexes once
 * the log has grown (a sequential scan kept from the empty table cost 4 ms per append at 4 000
 * events, and more with every event).
 */
import pg from 'pg';
import { createPostgresEventStore } from './postgres.ts';
import { lookupSql } from './postgresAppend.ts';
import { pgNames } from './postgresSchema.ts';
import { pgTestUrl, scansOf, tempSchema } from '@parcel-logistics/postgres/scratch';

const url = pgTestUrl();

test('the lookup planned on an empty log reads the events through indexes once the log holds 20 000 events', async () => {
  const { schema, drop } = tempSchema(url);
  const store = await createPostgresEventStore({ connectionString: url, schema });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`PREPARE lookup(text[], text[]) AS ${lookupSql(pgNames(schema))}`);
    // The plan cache settles on a generic plan after five executions; force it, on the empty log.
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query(`EXECUTE lookup(ARRAY['a'], ARRAY['s'])`);
    for (let batch = 0; batch < 200; batch++) {
      await store.appendMany(
        Array.from({ length: 100 }, (_, i) => ({
          streamName: `parcel-${batch}-${i}`,
          expectedRevision: 'no_stream' as const,
          events: [{ id: `e-${batch}-${i}`, type: 'Planned.v1', data: {} }],
        })),
      );
    }
    const onEvents = await scansOf(
      client,
      `EXECUTE lookup(ARRAY['e-1-1', 'e-9-9'], ARRAY['parcel-1-1', 'parcel-new'])`,
      'events',
    );
    expect(onEvents.length).toBe(3);
    expect(onEvents.filter((type) => !/Index/.test(type))).toEqual([]);
  } finally {
    await client.end();
    await store.close();
    await drop();
  }
});
