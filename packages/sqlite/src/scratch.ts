/** For tests and benches of the SQLite stores: a database file in a throw-away directory. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `name` in a new directory under the system's temporary one; `remove` deletes the directory with all in it. */
export async function tempFile(name: string): Promise<{ file: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'parcel-sqlite-'));
  return { file: join(dir, name), remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A store on a throw-away file, as a conformance suite takes it: reopened on the same file, deleted with it. */
export async function storeInTempFile<S extends { close(): Promise<void> | void }>(
  name: string,
  open: (file: string) => S,
): Promise<{ store: S; reopen: () => Promise<S>; cleanup: () => Promise<void> }> {
  const { file, remove } = await tempFile(name);
  const store = open(file);
  return {
    store,
    reopen: async () => open(file),
    cleanup: async () => {
      await store.close();
      await remove();
    },
  };
}
