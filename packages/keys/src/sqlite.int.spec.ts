import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedKeyStore } from './cache.ts';
import { keyStoreConformance, testMasterKey, type KeyStoreHarness } from './conformance.ts';
import type { KeyStore } from './port.ts';
import { createSqliteKeyStore } from './sqlite.ts';

async function sqliteHarness(wrap: (store: KeyStore) => KeyStore = (store) => store): Promise<KeyStoreHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'parcel-keys-'));
  const file = join(dir, 'keys.db');
  const masterKey = testMasterKey();
  const opened: KeyStore[] = [];
  const open = (key = masterKey) => {
    const store = wrap(createSqliteKeyStore({ file, masterKey: key }));
    opened.push(store);
    return store;
  };
  return {
    store: open(),
    masterKey,
    reopen: async (key) => open(key),
    // Every file in the directory: the database, its -wal and -shm.
    atRest: async () => Promise.all((await readdir(dir)).map((name) => readFile(join(dir, name)))),
    cleanup: async () => {
      await Promise.all(opened.map((store) => store.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

keyStoreConformance('sqlite', () => sqliteHarness());
keyStoreConformance('sqlite behind the key cache', () => sqliteHarness((store) => cachedKeyStore(store)));
