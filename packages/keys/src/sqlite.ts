/**
 * Key store on its own SQLite file (the embedded wiring: `keys.db` in the data directory, beside
 * but apart from the event store), through `node:sqlite`.
 *
 * `secure_delete` makes SQLite overwrite deleted and replaced content with zeros, and a destroyed
 * key's row is rewritten without its wrapped key. In WAL mode the earlier page images stay in the
 * `-wal` file until a checkpoint: `shred()` runs `wal_checkpoint(TRUNCATE)`, after which neither
 * file holds a destroyed wrapped key (the integration tests scan them byte by byte). The file
 * system may still keep freed blocks: see the README.
 *
 * Creates arriving in the same turn of the event loop commit together (one transaction): a key
 * store write is one small row. With durability `full`, a commit is made durable by syncing the
 * WAL file from libuv's thread pool (`datasync` of a handle on `<file>-wal`) before the creates
 * resolve, not by SQLite's own fsync on this thread: the event loop keeps serving meanwhile, and
 * no key is handed out (so no event sealed with it is appended) before it would survive a power cut.
 */
import { closeSync, openSync } from 'node:fs';
import { open as openFile, type FileHandle } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { inWriteTransaction, truncateWal, zeroDeletedContent } from '@parcel-logistics/sqlite';
import { checkParcelId, keyInfoOf, MASTER_KEY_ID, newDataKey, openDataKey, openDataKeys } from './adapter.ts';
import { WrongMasterKeyError } from './errors.ts';
import type { MasterKey } from './masterKey.ts';
import type { CreateKeyOptions, CreateKeyResult, DestroyKeyResult, KeyStore } from './port.ts';

export interface SqliteKeyStoreOptions {
  file: string | ':memory:';
  masterKey: MasterKey;
  /** 'full' (default): a created key survives power loss. 'normal': a process crash only. */
  durability?: 'full' | 'normal';
  now?: () => Date;
  busyTimeoutMs?: number;
}

/** The SQLite store has `shred()` as every store, plus the files it keeps (for scans). */
export interface SqliteKeyStore extends KeyStore {
  readonly files: readonly string[];
}

const schema = `
CREATE TABLE IF NOT EXISTS data_keys (
  parcel_id TEXT NOT NULL PRIMARY KEY,
  generation INTEGER NOT NULL,
  wrapped BLOB,
  created_at TEXT NOT NULL,
  erased_at TEXT,
  CHECK ((wrapped IS NULL) = (erased_at IS NOT NULL))
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (
  name TEXT NOT NULL PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;`;

interface Row {
  parcel_id: string;
  generation: number;
  wrapped: Uint8Array | null;
  created_at: string;
  erased_at: string | null;
}

interface Pending {
  parcelId: string;
  options: CreateKeyOptions | undefined;
  resolve: (result: CreateKeyResult) => void;
  reject: (error: unknown) => void;
}

export function createSqliteKeyStore(options: SqliteKeyStoreOptions): SqliteKeyStore {
  const { masterKey } = options;
  const now = options.now ?? (() => new Date());
  // Created owner-only before SQLite opens it; SQLite gives -wal and -shm the same mode.
  if (options.file !== ':memory:') closeSync(openSync(options.file, 'a', 0o600));
  const db = new DatabaseSync(options.file, { timeout: options.busyTimeoutMs ?? 5000 });
  try {
    zeroDeletedContent(db);
    db.exec('PRAGMA journal_mode = WAL');
    // NORMAL: no fsync on COMMIT (a checkpoint still syncs); `full` syncs the WAL itself, off this thread (below).
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec(schema);
    checkMasterKey(db, masterKey, options.file);
  } catch (error) {
    db.close();
    throw error;
  }

  const selectOne = db.prepare(
    'SELECT parcel_id, generation, wrapped, created_at, erased_at FROM data_keys WHERE parcel_id = ?',
  );
  const insert = db.prepare(
    'INSERT INTO data_keys (parcel_id, generation, wrapped, created_at, erased_at) VALUES (?, ?, ?, ?, ?)',
  );
  const renew = db.prepare(
    'UPDATE data_keys SET generation = ?, wrapped = ?, created_at = ?, erased_at = NULL WHERE parcel_id = ?',
  );
  const erase = db.prepare('UPDATE data_keys SET wrapped = NULL, erased_at = ? WHERE parcel_id = ?');
  const selectMany = db.prepare(
    `SELECT parcel_id, generation, wrapped FROM data_keys
      WHERE parcel_id IN (SELECT value FROM json_each(?)) AND wrapped IS NOT NULL`,
  );
  const listStmt = db.prepare(
    `SELECT parcel_id, generation, wrapped IS NOT NULL AS active, created_at, erased_at FROM data_keys
      WHERE parcel_id > ? ORDER BY parcel_id LIMIT ?`,
  );
  const countStmt = db.prepare(
    `SELECT COUNT(*) FILTER (WHERE wrapped IS NOT NULL) AS active, COUNT(*) FILTER (WHERE wrapped IS NULL) AS erased
      FROM data_keys`,
  );

  const createOne = (parcelId: string, createOptions: CreateKeyOptions | undefined): CreateKeyResult => {
    const row = selectOne.get(parcelId) as Row | undefined;
    if (row?.wrapped) {
      return { status: 'existing', key: openDataKey(masterKey, parcelId, row.generation, row.wrapped) };
    }
    if (row && !createOptions?.renewErased) return { status: 'erased', erasedAt: row.erased_at! };
    const generation = row ? row.generation + 1 : 1;
    const { dataKey, wrapped } = newDataKey(masterKey, parcelId, generation);
    if (row) renew.run(generation, wrapped, now().toISOString(), parcelId);
    else insert.run(parcelId, generation, wrapped, now().toISOString(), null);
    return { status: 'created', key: dataKey };
  };

  const syncs = options.durability !== 'normal' && options.file !== ':memory:';
  let wal: Promise<FileHandle> | undefined;
  /** Makes what was committed durable: the WAL file's data synced to disk, from the thread pool. */
  const durable = async (): Promise<void> => {
    if (!syncs) return;
    wal ??= openFile(`${options.file}-wal`, 'r');
    await (await wal).datasync();
  };

  let pending: Pending[] = [];
  const flush = (): void => {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    const outcomes: (() => void)[] = [];
    try {
      inWriteTransaction(db, () => {
        for (const p of batch) {
          try {
            const result = createOne(p.parcelId, p.options);
            outcomes.push(() => p.resolve(result));
          } catch (error) {
            outcomes.push(() => p.reject(error));
          }
        }
      });
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    durable().then(
      () => {
        for (const outcome of outcomes) outcome();
      },
      (error: unknown) => {
        for (const p of batch) p.reject(error);
      },
    );
  };

  const inTransaction = <T>(work: () => T): T => {
    flush();
    return inWriteTransaction(db, work);
  };

  let closing: Promise<void> | undefined;
  const open = (): void => {
    if (closing) throw new Error('key store is closed');
  };

  return {
    files: options.file === ':memory:' ? [] : [options.file, `${options.file}-wal`, `${options.file}-shm`],
    create(parcelId, createOptions) {
      return new Promise((resolve, reject) => {
        open();
        checkParcelId(parcelId);
        if (pending.length === 0) setImmediate(flush);
        pending.push({ parcelId, options: createOptions, resolve, reject });
      });
    },
    async find(parcelIds) {
      open();
      if (parcelIds.length === 0) return new Map();
      flush();
      return openDataKeys(masterKey, selectMany.all(JSON.stringify(parcelIds)) as unknown as Row[]);
    },
    async destroy(parcelId) {
      open();
      checkParcelId(parcelId);
      const result = inTransaction((): DestroyKeyResult => {
        const row = selectOne.get(parcelId) as Row | undefined;
        if (row && !row.wrapped) return { status: 'already-erased', erasedAt: row.erased_at! };
        const erasedAt = now().toISOString();
        if (row) {
          erase.run(erasedAt, parcelId);
          return { status: 'destroyed', erasedAt };
        }
        insert.run(parcelId, 0, null, erasedAt, erasedAt);
        return { status: 'tombstoned', erasedAt };
      });
      await durable();
      return result;
    },
    async list({ after = '', limit }) {
      open();
      flush();
      const rows = listStmt.all(after, Math.max(0, limit)) as unknown as (Row & { active: number })[];
      return rows.map((row) => keyInfoOf(row, Boolean(row.active)));
    },
    async count() {
      open();
      flush();
      const { active, erased } = countStmt.get() as { active: number; erased: number };
      return { active, erased };
    },
    async shred() {
      open();
      flush();
      if (!truncateWal(db)) {
        throw new Error(
          'key store shred incomplete: another connection to the key store holds a read transaction, so the WAL could not be truncated; run it again',
        );
      }
    },
    async ping() {
      open();
      countStmt.get();
    },
    close() {
      closing ??= (async () => {
        flush();
        await (await wal)?.close();
        // The last connection to close checkpoints the WAL and removes it.
        db.close();
      })();
      return closing;
    },
  };
}

function checkMasterKey(db: DatabaseSync, masterKey: MasterKey, file: string): void {
  const row = inWriteTransaction(db, () => {
    const found = db.prepare('SELECT value FROM meta WHERE name = ?').get(MASTER_KEY_ID) as
      { value: string } | undefined;
    if (!found) db.prepare('INSERT INTO meta (name, value) VALUES (?, ?)').run(MASTER_KEY_ID, masterKey.id);
    return found;
  });
  if (row && row.value !== masterKey.id) {
    throw new WrongMasterKeyError(`the key store ${file}`, row.value, masterKey.id);
  }
}
