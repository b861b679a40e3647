/**
 * What every store on `node:sqlite` does the same way (the event store, the views, the webhook
 * store and the key store): write transactions, and shredding a file of what it held before
 * (secure deletion, a rebuild without free pages, the WAL truncated).
 */
import { DatabaseSync } from 'node:sqlite';

/** Runs `work` between `begin` and `commit`; `undo` when it throws. */
function atomically<T>(db: DatabaseSync, begin: string, commit: string, undo: () => void, work: () => T): T {
  db.exec(begin);
  try {
    const result = work();
    db.exec(commit);
    return result;
  } catch (error) {
    undo();
    throw error;
  }
}

/** Runs `work` in one write transaction (BEGIN IMMEDIATE): committed if it returns, rolled back if it throws. */
export function inWriteTransaction<T>(db: DatabaseSync, work: () => T): T {
  return atomically(db, 'BEGIN IMMEDIATE', 'COMMIT', () => db.isTransaction && db.exec('ROLLBACK'), work);
}

/** Runs `work` in a savepoint `name` of the open transaction: kept if it returns, undone (the transaction goes on) if it throws. */
export function inSavepoint<T>(db: DatabaseSync, name: string, work: () => T): T {
  return atomically(
    db,
    `SAVEPOINT ${name}`,
    `RELEASE ${name}`,
    () => {
      db.exec(`ROLLBACK TO ${name}`);
      db.exec(`RELEASE ${name}`);
    },
    work,
  );
}

/** From now on a deleted or overwritten row's bytes are zeroed, not left in free pages. */
export function zeroDeletedContent(db: DatabaseSync): void {
  db.exec('PRAGMA secure_delete = ON');
}

/**
 * Copies the WAL, which holds pages as they were, back into the database and truncates it to
 * nothing. False when another connection's read transaction kept it from being truncated.
 */
export function truncateWal(db: DatabaseSync): boolean {
  const { busy } = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number };
  return busy === 0;
}

/**
 * Rebuilds the file without its free pages (a file written before secure deletion keeps former
 * rows' bytes there), then truncates the WAL.
 */
export function vacuumAndTruncateWal(db: DatabaseSync): void {
  db.exec('VACUUM');
  truncateWal(db);
}

/**
 * Opens `file` on a connection of its own with secure deletion, runs `work` on it (a one-time
 * rewrite, or nothing), then rebuilds the file without free pages and truncates its WAL. For the
 * composition root, before the store on the file opens.
 */
export function shredSqliteFile<T>(file: string, work: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(file);
  try {
    zeroDeletedContent(db);
    const result = work(db);
    vacuumAndTruncateWal(db);
    return result;
  } finally {
    if (db.isTransaction) db.exec('ROLLBACK');
    db.close();
  }
}
