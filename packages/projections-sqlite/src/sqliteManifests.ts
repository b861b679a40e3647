/** The manifests table of the SQLite projection store, and the parcels still open for a manifest. */
import type { DatabaseSync } from 'node:sqlite';
import type { StoredManifest } from '@parcel-logistics/contracts';
import type { ManifestStore } from '@parcel-logistics/projections';

export const manifestSchema = `
CREATE TABLE IF NOT EXISTS manifests (
  manifest_id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  carrier TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS manifests_by_account ON manifests (client_id, created_ms DESC, manifest_id DESC);`;

/**
 * The account's parcels of a carrier with its number, active and on no manifest: walked from the
 * account's index (a manifest is made once a day or so; the account's parcels are read once).
 */
export const openForManifestSql = `SELECT doc FROM parcels
  WHERE client_id = ? AND carrier = ? AND partner_tracking_no <> ''
    AND json_extract(doc, '$.status') = 'active' AND json_extract(doc, '$.manifestId') IS NULL
  ORDER BY json_extract(doc, '$.createdAt'), tracking_number LIMIT ?`;

const list = (carrier: boolean, before: boolean) => `SELECT doc FROM manifests WHERE client_id = ?
  ${carrier ? 'AND carrier = ?' : ''}
  ${before ? 'AND (created_ms, manifest_id) < (SELECT created_ms, manifest_id FROM manifests WHERE manifest_id = ? AND client_id = ?)' : ''}
  ORDER BY created_ms DESC, manifest_id DESC LIMIT ?`;

const parse = (rows: unknown[]): StoredManifest[] =>
  (rows as { doc: string }[]).map((row) => JSON.parse(row.doc) as StoredManifest);

export function createSqliteManifestStore(db: DatabaseSync, open: () => void): Omit<ManifestStore, 'checkpoints'> {
  const put = db.prepare(
    `INSERT INTO manifests (manifest_id, client_id, carrier, created_ms, doc) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (manifest_id) DO NOTHING`,
  );
  const get = db.prepare('SELECT doc FROM manifests WHERE manifest_id = ? AND client_id = ?');
  const lists = {
    all: db.prepare(list(false, false)),
    carrier: db.prepare(list(true, false)),
    before: db.prepare(list(false, true)),
    both: db.prepare(list(true, true)),
  };
  return {
    async put(manifest) {
      open();
      const { manifestId, clientId, carrier, createdMs } = manifest;
      put.run(manifestId, clientId, carrier, createdMs, JSON.stringify(manifest));
    },
    async getForClient(clientId, manifestId) {
      open();
      return parse(get.all(manifestId, clientId))[0] ?? null;
    },
    async listForClient(clientId, { limit, carrier, before }) {
      open();
      if (carrier !== undefined && before !== undefined)
        return parse(lists.both.all(clientId, carrier, before, clientId, limit));
      if (carrier !== undefined) return parse(lists.carrier.all(clientId, carrier, limit));
      if (before !== undefined) return parse(lists.before.all(clientId, before, clientId, limit));
      return parse(lists.all.all(clientId, limit));
    },
  };
}
