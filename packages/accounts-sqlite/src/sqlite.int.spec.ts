import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountStore } from '@parcel-logistics/accounts';
import { accountStoreConformance } from '@parcel-logistics/accounts/conformance';
import { createSqliteAccountStore } from './index.ts';

accountStoreConformance('sqlite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'parcel-accounts-'));
  const file = join(dir, 'accounts.db');
  const opened: AccountStore[] = [];
  const open = () => {
    const store = createSqliteAccountStore({ file });
    opened.push(store);
    return store;
  };
  return {
    store: open(),
    reopen: async () => open(),
    // Every file in the directory: the database, its -wal and -shm.
    atRest: async () => Promise.all((await readdir(dir)).map((name) => readFile(join(dir, name)))),
    cleanup: async () => {
      await Promise.all(opened.map((store) => store.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
});
