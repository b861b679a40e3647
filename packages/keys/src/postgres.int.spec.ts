import { keyStoreConformance, testMasterKey } from './conformance.ts';
import type { KeyStore } from './port.ts';
import { createPostgresKeyStore, findSql } from './postgres.ts';
import { pgTestUrl, scansOfPlanFromEmpty, tempSchema } from '@parcel-logistics/postgres/scratch';
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
  try {
    const onKeys = await scansOfPlanFromEmpty(
      url,
      {
        prepare: `PREPARE find(text[]) AS ${findSql(`"${schema}".data_keys`)}`,
        first: `EXECUTE find(ARRAY['parcel-a'])`,
        execute: `EXECUTE find(ARRAY['parcel-1-1', 'parcel-19-999'])`,
        relation: 'data_keys',
      },
      async () => {
        for (let batch = 0; batch < 20; batch++) {
          await Promise.all(Array.from({ length: 1000 }, (_, i) => store.create(`parcel-${batch}-${i}`)));
        }
      },
    );
    expect(onKeys.length).toBeGreaterThan(0);
    expect(onKeys.filter((type) => !/Index/.test(type))).toEqual([]);
    const found = await store.find(['parcel-1-1', 'parcel-19-999', 'parcel-none', 'parcel-1-1']);
    expect([...found.keys()].sort()).toEqual(['parcel-1-1', 'parcel-19-999']);
  } finally {
    await store.close();
    await drop();
  }
});
