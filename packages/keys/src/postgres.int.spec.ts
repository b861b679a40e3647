import { keyStoreConformance, testMasterKey } from './conformance.ts';
import type { KeyStore } from './port.ts';
import { createPostgresKeyStore } from './postgres.ts';
import { pgTestUrl, tempSchema } from '@parcel-logistics/postgres/scratch';
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
