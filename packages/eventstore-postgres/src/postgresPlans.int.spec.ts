/**
 * The append's lookup is a named statement, and the append function's gap check a statement of
 * PL/pgSQL: PostgreSQL plans each once per connection and may keep that plan for good. Planned while
 * the log is empty, they must still read through the indexes once the log has grown (a sequential
 * scan kept from the empty table cost 4 ms per append at 4 000 events, and more with every event).
 */
import { createPostgresEventStore } from './postgres.ts';
import { lookupSql } from './postgresAppend.ts';
import { gapSql, pgNames } from './postgresSchema.ts';
import { pgTestUrl, scansOfPlanFromEmpty, tempSchema } from '@parcel-logistics/postgres/scratch';

const url = pgTestUrl();

const statements = (schema: string) => ({
  lookup: {
    prepare: `PREPARE lookup(text[], text[]) AS ${lookupSql(pgNames(schema))}`,
    first: `EXECUTE lookup(ARRAY['a'], ARRAY['s'])`,
    execute: `EXECUTE lookup(ARRAY['e-1-1', 'e-9-9'], ARRAY['parcel-1-1', 'parcel-new'])`,
    relation: 'events',
  },
  'gap check': {
    prepare: `PREPARE gap(text[], bigint[]) AS ${gapSql(pgNames(schema))}`,
    first: `EXECUTE gap(ARRAY['s'], ARRAY[1::bigint])`,
    execute: `EXECUTE gap(ARRAY['parcel-1-1', 'parcel-2-2', 'parcel-new'], ARRAY[1, 2, 0]::bigint[])`,
    relation: 'events',
  },
});

test.each(['lookup', 'gap check'] as const)(
  'the %s planned on an empty log reads the events through indexes once the log holds 20 000 events',
  async (name) => {
    const { schema, drop } = tempSchema(url);
    const store = await createPostgresEventStore({ connectionString: url, schema });
    try {
      const onEvents = await scansOfPlanFromEmpty(url, statements(schema)[name], async () => {
        for (let batch = 0; batch < 200; batch++) {
          await store.appendMany(
            Array.from({ length: 100 }, (_, i) => ({
              streamName: `parcel-${batch}-${i}`,
              expectedRevision: 'no_stream' as const,
              events: [{ id: `e-${batch}-${i}`, type: 'Planned.v1', data: {} }],
            })),
          );
        }
      });
      expect(onEvents.length).toBe(name === 'lookup' ? 3 : 1);
      expect(onEvents.filter((type) => !/Index/.test(type))).toEqual([]);
    } finally {
      await store.close();
      await drop();
    }
  },
);
