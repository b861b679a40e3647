import pg from 'pg';
import { keyStoreConformance, testMasterKey } from './conformance.ts';
import type { KeyStore } from './port.ts';
import { createPostgresKeyStore, findSql } from './postgres.ts';
import { pgTestUrl, scansOf, tempSchema } from '@parcel-logistics/postgres/scratch';
import { tableBytes } from '../test/postgresTesting.ts';

const url = pgTestUrl();

keyStoreConformance('postgres', async () => {
  const { schema, drop } = tempSchema(url, 'keys_test');
  const masterKey = testMasterKey();
  const opened: KeyStore[] = [];
  const open = async (key = masterKey) => {
    const store = await createPostgresKeyStore({ connectionString: url, schema, masterKey: key, poolSize: 4 });
    opened.push(store);
    return store;
  };
  return {
    store: await open(),
    masterKey,
    reopen: open,
    // The server's files are not the test's to read: the table's rows, raw wrapped bytes included.
    atRest: () => tableBytes(url, `"${schema}".data_keys`),
    cleanup: async () => {
      await Promise.all(opened.map((store) => store.close()));
      await drop();
    },
  };
});

// A named statement is planned once per connection and that plan is kept: a process that started
// while the table was small must still find keys through the primary key once the table has grown.
test('a find planned on an empty key table reads it through the primary key once it holds 20 000 keys', async () => {
  const { schema, drop } = tempSchema(url, 'keys_test');
  const store = await createPostgresKeyStore({ connectionString: url, schema, masterKey: testMasterKey() });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`PREPARE find(text[]) AS ${findSql(`"${schema}".data_keys`)}`);
    // The plan cache settles on a generic plan after five executions; force it, on the empty table.
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query(`EXECUTE find(ARRAY['parcel-a'])`);
    for (let batch = 0; batch < 20; batch++) {
      await Promise.all(Array.from({ length: 1000 }, (_, i) => store.create(`parcel-${batch}-${i}`)));
    }
    const found = await client.query(`EXECUTE find(ARRAY['parcel-1-1', 'parcel-19-999', 'parcel-none'])`);
    expect(found.rows.map((row: { parcel_id: string }) => row.parcel_id).sort()).toEqual([
      'parcel-1-1',
      'parcel-19-999',
    ]);
    const onKeys = await scansOf(client, `EXECUTE find(ARRAY['parcel-1-1', 'parcel-19-999'])`, 'data_keys');
    expect(onKeys.length).toBeGreaterThan(0);
    expect(onKeys.filter((type) => !/Index/.test(type))).toEqual([]);
  } finally {
    await client.end();
    await store.close();
    await drop();
  }
});
