/** The Idempotency-Key records of the SQLite projection store. */
import type { DatabaseSync } from 'node:sqlite';
import { inWriteTransaction } from '@parcel-logistics/sqlite';
import type { IdempotencyRecord, IdempotencyStore } from '@parcel-logistics/projections';

/**
 * A rowid table, not WITHOUT ROWID: an answer's body can be hundreds of KB, far beyond the small
 * rows WITHOUT ROWID suits. The answer's columns are set once the record is done.
 *
 * `idempotency_parcels` names the parcels a done record's answer concerns, with the record's owner
 * (unique per request): a link left by a record since taken over or purged matches no record, so
 * it never drops another request's answer; such links are deleted with the next purge.
 */
export const idempotencySchema = `
CREATE TABLE IF NOT EXISTS idempotency (
  client_id TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'done')),
  owner TEXT NOT NULL,
  locked_until INTEGER NOT NULL,
  answer_status INTEGER,
  answer_body TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (client_id, key)
);
CREATE INDEX IF NOT EXISTS idempotency_by_expiry ON idempotency (expires_at);

CREATE TABLE IF NOT EXISTS idempotency_parcels (
  tracking_number TEXT NOT NULL,
  client_id TEXT NOT NULL,
  key TEXT NOT NULL,
  owner TEXT NOT NULL,
  PRIMARY KEY (tracking_number, client_id, key, owner)
) WITHOUT ROWID;`;

export const idempotencySql = {
  /**
   * The claim in one statement: a new key is inserted; an existing record is overwritten only when
   * it has expired, or is pending with the same fingerprint and a lapsed lease (`excluded.created_at`
   * is the claim's `now`). Otherwise nothing is written and `changes` is 0. A takeover drops the
   * former answer, so the record is the new claim's alone.
   */
  claim: `INSERT INTO idempotency (client_id, key, fingerprint, state, owner, locked_until, created_at, expires_at)
    VALUES (?, ?, ?, 'pending', ?, ?, ?, ?)
    ON CONFLICT (client_id, key) DO UPDATE SET
      fingerprint = excluded.fingerprint, state = 'pending', owner = excluded.owner, locked_until = excluded.locked_until,
      answer_status = NULL, answer_body = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at
    WHERE idempotency.expires_at <= excluded.created_at
       OR (idempotency.state = 'pending' AND idempotency.fingerprint = excluded.fingerprint AND idempotency.locked_until <= excluded.created_at)`,
  get: `SELECT client_id, key, fingerprint, state, owner, locked_until, answer_status, answer_body, created_at, expires_at
    FROM idempotency WHERE client_id = ? AND key = ?`,
  complete: `UPDATE idempotency SET state = 'done', answer_status = ?, answer_body = ?
    WHERE client_id = ? AND key = ? AND owner = ? AND state = 'pending'`,
  release: `DELETE FROM idempotency WHERE client_id = ? AND key = ? AND owner = ? AND state = 'pending'`,
  purge: 'DELETE FROM idempotency WHERE expires_at <= ?',
  link: 'INSERT OR IGNORE INTO idempotency_parcels (tracking_number, client_id, key, owner) VALUES (?, ?, ?, ?)',
  forget: `DELETE FROM idempotency WHERE (client_id, key, owner) IN
    (SELECT client_id, key, owner FROM idempotency_parcels WHERE tracking_number = ?)`,
  unlink: 'DELETE FROM idempotency_parcels WHERE tracking_number = ?',
  purgeLinks: `DELETE FROM idempotency_parcels WHERE NOT EXISTS (SELECT 1 FROM idempotency
    WHERE idempotency.client_id = idempotency_parcels.client_id AND idempotency.key = idempotency_parcels.key
      AND idempotency.owner = idempotency_parcels.owner)`,
} as const;

interface IdempotencyRow {
  client_id: string;
  key: string;
  fingerprint: string;
  state: 'pending' | 'done';
  owner: string;
  locked_until: number;
  answer_status: number | null;
  answer_body: string | null;
  created_at: number;
  expires_at: number;
}

const recordOf = (row: IdempotencyRow): IdempotencyRecord => ({
  clientId: row.client_id,
  key: row.key,
  fingerprint: row.fingerprint,
  state: row.state,
  owner: row.owner,
  lockedUntil: row.locked_until,
  ...(row.state === 'done' ? { answer: { status: row.answer_status!, body: row.answer_body! } } : {}),
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/** Prepares the statements on `db`, whose schema includes `idempotencySchema`; `open` throws once the store is closed. */
export function createSqliteIdempotencyStore(db: DatabaseSync, open: () => void): IdempotencyStore {
  const claim = db.prepare(idempotencySql.claim);
  const get = db.prepare(idempotencySql.get);
  const complete = db.prepare(idempotencySql.complete);
  const release = db.prepare(idempotencySql.release);
  const purge = db.prepare(idempotencySql.purge);
  const link = db.prepare(idempotencySql.link);
  const forget = db.prepare(idempotencySql.forget);
  const unlink = db.prepare(idempotencySql.unlink);
  const purgeLinks = db.prepare(idempotencySql.purgeLinks);
  const inTransaction = <T>(work: () => T): T => inWriteTransaction(db, work);
  return {
    async claim({ clientId, key, fingerprint, owner, now, lockedUntil, expiresAt }) {
      open();
      // The refused claim's read holds the write lock with the claim, so another connection
      // cannot release or purge the record in between.
      return inTransaction(() => {
        const { changes } = claim.run(clientId, key, fingerprint, owner, lockedUntil, now, expiresAt);
        const live = (changes === 1 ? undefined : get.get(clientId, key)) as IdempotencyRow | undefined;
        return live ? { claimed: false, record: recordOf(live) } : { claimed: true };
      });
    },
    async complete(clientId, key, owner, answer, parcels = []) {
      open();
      if (parcels.length === 0) return complete.run(answer.status, answer.body, clientId, key, owner).changes === 1;
      return inTransaction(() => {
        if (complete.run(answer.status, answer.body, clientId, key, owner).changes !== 1) return false;
        for (const trackingNumber of parcels) link.run(trackingNumber, clientId, key, owner);
        return true;
      });
    },
    async release(clientId, key, owner) {
      open();
      release.run(clientId, key, owner);
    },
    async get(clientId, key) {
      open();
      const row = get.get(clientId, key) as IdempotencyRow | undefined;
      return row ? recordOf(row) : null;
    },
    async purgeExpired(now) {
      open();
      return inTransaction(() => {
        const purged = Number(purge.run(now).changes);
        purgeLinks.run();
        return purged;
      });
    },
    async forgetParcels(trackingNumbers) {
      open();
      // Deleted rows are zeroed (the store's secure_delete); the store's shred() then empties the WAL.
      return inTransaction(() => {
        let forgotten = 0;
        for (const trackingNumber of new Set(trackingNumbers)) {
          forgotten += Number(forget.run(trackingNumber).changes);
          unlink.run(trackingNumber);
        }
        return forgotten;
      });
    },
  };
}
