/** Projection store on one SQLite file through Node's built-in `node:sqlite` (the embedded default). */
import { DatabaseSync } from 'node:sqlite';
import { inWriteTransaction, shredSqliteFile, truncateWal, zeroDeletedContent } from '@parcel-logistics/sqlite';
import { erasureClocksOf, publicTrackingOf, type StoredParcelView } from '@parcel-logistics/contracts';
import type { ProjectionCheckpoints, ProjectionStore, TokenRecord } from '@parcel-logistics/projections';
import { createSqliteIdempotencyStore, idempotencySchema } from './sqliteIdempotency.ts';
import { createSqliteManifestStore, manifestSchema, openForManifestSql } from './sqliteManifests.ts';

export interface SqliteProjectionStoreOptions {
  file: string | ':memory:';
  /** How long a write waits for another connection's write lock before failing. */
  busyTimeoutMs?: number;
}

const schema = `
CREATE TABLE IF NOT EXISTS parcels (
  tracking_number TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  custom_ref TEXT NOT NULL,
  revision INTEGER NOT NULL,
  carrier TEXT NOT NULL DEFAULT '',
  partner_tracking_no TEXT NOT NULL DEFAULT '',
  doc TEXT NOT NULL,
  retention_created_ms INTEGER,
  retention_final_ms INTEGER
);
CREATE INDEX IF NOT EXISTS parcels_by_reference ON parcels (client_id, custom_ref);

CREATE TABLE IF NOT EXISTS checkpoints (
  subscription_id TEXT PRIMARY KEY,
  position INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS tokens (
  client_id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);`;

const partnerIndex = `CREATE INDEX IF NOT EXISTS parcels_by_partner ON parcels (partner_tracking_no, carrier) WHERE partner_tracking_no <> ''`;

/**
 * The retention sweep's columns (`erasureClocksOf`, epoch ms): the creation and the final status
 * of a parcel that still holds personal data, NULL once it is erased (and the final one before a
 * final status), so that each index holds only the parcels that may still fall due.
 */
const retentionColumns = ['retention_created_ms', 'retention_final_ms'] as const;
const retentionIndexes = `
CREATE INDEX IF NOT EXISTS parcels_by_retention_created ON parcels (retention_created_ms) WHERE retention_created_ms IS NOT NULL;
CREATE INDEX IF NOT EXISTS parcels_by_retention_final ON parcels (retention_final_ms) WHERE retention_final_ms IS NOT NULL;`;

/** Each half of the due query is answered from its own partial index (MULTI-INDEX OR; see the adapter's test). */
export const dueForErasureSql =
  'SELECT tracking_number FROM parcels WHERE retention_created_ms <= ? OR retention_final_ms <= ? LIMIT ?';
/** The same of some clients only, or of all but some (a JSON array of client ids). */
const dueForClientsSql = (only: boolean) =>
  `SELECT tracking_number FROM parcels WHERE (retention_created_ms <= ? OR retention_final_ms <= ?)
     AND client_id ${only ? 'IN' : 'NOT IN'} (SELECT value FROM json_each(?)) LIMIT ?`;

const retentionValues = (view: StoredParcelView): [number | null, number | null] => {
  const clocks = erasureClocksOf(view);
  return [clocks?.createdMs ?? null, clocks?.finalMs ?? null];
};

interface TokenRow {
  client_id: string;
  token_hash: string;
  issued_at: number;
  expires_at: number;
}

/**
 * The lookups by tracking number, each answered from the primary key. `+client_id` keeps the
 * account's index out of the batch lookup: without statistics SQLite would otherwise walk every
 * parcel of the account and test it against the numbers (15 ms for 1 000 numbers among 30 000
 * parcels, growing with the account, instead of 2.6 ms).
 */
export const byNumberSql = {
  get: 'SELECT doc FROM parcels WHERE tracking_number = ?',
  getForClient: 'SELECT doc FROM parcels WHERE tracking_number = ? AND client_id = ?',
  getMany: `SELECT tracking_number, doc FROM parcels
     WHERE tracking_number IN (SELECT value FROM json_each(?)) AND +client_id = ?`,
  revisions: 'SELECT tracking_number, revision FROM parcels WHERE tracking_number IN (SELECT value FROM json_each(?))',
} as const;

const parseDoc = (row: unknown): StoredParcelView | null =>
  row === undefined ? null : (JSON.parse((row as { doc: string }).doc) as StoredParcelView);

/**
 * Rebuilds a views file without its free pages, WAL truncated: a file written before the views
 * zeroed what they overwrite may keep former values there. Run before the store opens (after the
 * one-time sealing of former events, docs/personal-data.md).
 */
export function vacuumSqliteProjections(file: string): void {
  shredSqliteFile(file, () => undefined);
}

export function createSqliteProjectionStore(options: SqliteProjectionStoreOptions): ProjectionStore {
  const db = new DatabaseSync(options.file, { timeout: options.busyTimeoutMs ?? 5000 });
  db.exec('PRAGMA journal_mode = WAL');
  // The views are rebuilt from the event store; a crash of the machine may lose their last writes, not a parcel.
  // It may lose the latest Idempotency-Key records too: a retry of such a request then runs anew.
  db.exec('PRAGMA synchronous = NORMAL');
  // An overwritten or deleted row's bytes are zeroed, not left in free pages (personal data erased from a view).
  zeroDeletedContent(db);
  db.exec(schema);
  db.exec(idempotencySchema);
  db.exec(manifestSchema);
  // Files made before the partner lookup existed get its columns (views are re-saved as events arrive).
  const columns = new Set((db.prepare('PRAGMA table_info(parcels)').all() as { name: string }[]).map((c) => c.name));
  for (const column of ['carrier', 'partner_tracking_no']) {
    if (!columns.has(column)) db.exec(`ALTER TABLE parcels ADD COLUMN ${column} TEXT NOT NULL DEFAULT ''`);
  }
  db.exec(partnerIndex);
  // Files made before the retention sweep get its columns, filled in from the stored views at once.
  if (!retentionColumns.every((column) => columns.has(column))) addRetentionColumns(db, columns);
  db.exec(retentionIndexes);

  const get = db.prepare(byNumberSql.get);
  const getForClient = db.prepare(byNumberSql.getForClient);
  const getMany = db.prepare(byNumberSql.getMany);
  const revisions = db.prepare(byNumberSql.revisions);
  const getByReference = db.prepare(
    'SELECT doc FROM parcels WHERE client_id = ? AND custom_ref = ? ORDER BY tracking_number LIMIT 1',
  );
  const getByPartner = db.prepare(
    `SELECT doc FROM parcels WHERE partner_tracking_no = ? AND carrier = ? AND partner_tracking_no <> '' ORDER BY tracking_number LIMIT 1`,
  );
  const insertParcel = db.prepare(
    `INSERT INTO parcels (tracking_number, client_id, custom_ref, revision, carrier, partner_tracking_no, doc,
       retention_created_ms, retention_final_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (tracking_number) DO NOTHING`,
  );
  const updateParcel = db.prepare(
    `UPDATE parcels SET client_id = ?, custom_ref = ?, revision = ?, carrier = ?, partner_tracking_no = ?, doc = ?,
       retention_created_ms = ?, retention_final_ms = ?
     WHERE tracking_number = ? AND revision = ?`,
  );
  const openForManifest = db.prepare(openForManifestSql);
  const dueForErasure = db.prepare(dueForErasureSql);
  const dueOfClients = db.prepare(dueForClientsSql(true));
  const dueOfOthers = db.prepare(dueForClientsSql(false));
  const saveOne = (view: StoredParcelView, expectedRevision: number): boolean => {
    const doc = JSON.stringify(view);
    const { trackingNumber, clientId, customTrackingNum, revision, carrier, partnerTrackingNo } = view;
    // The columns after tracking_number, in the order both statements name them.
    const columns = [clientId, customTrackingNum, revision, carrier, partnerTrackingNo, doc, ...retentionValues(view)];
    const { changes } =
      expectedRevision === -1
        ? insertParcel.run(trackingNumber, ...columns)
        : updateParcel.run(...columns, trackingNumber, expectedRevision);
    return changes === 1;
  };
  const putToken = db.prepare(
    `INSERT INTO tokens (client_id, token_hash, issued_at, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (client_id) DO UPDATE SET
       token_hash = excluded.token_hash, issued_at = excluded.issued_at, expires_at = excluded.expires_at`,
  );
  const loadCheckpoint = db.prepare('SELECT position FROM checkpoints WHERE subscription_id = ?');
  const saveCheckpoint = db.prepare(
    `INSERT INTO checkpoints (subscription_id, position) VALUES (?, ?)
     ON CONFLICT (subscription_id) DO UPDATE SET position = excluded.position`,
  );
  const findToken = db.prepare('SELECT client_id, token_hash, issued_at, expires_at FROM tokens WHERE token_hash = ?');

  let closed = false;
  const open = (): void => {
    if (closed) throw new Error('projection store is closed');
  };

  /**
   * The view saves asked for in one turn of the event loop, committed together in the order asked
   * (each still its own compare-and-set). Under load the inline projection of every create-order
   * was a commit of its own: the largest cost on the embedded process's main thread after HTTP.
   * A read of the views commits what is queued first, so it sees every save asked for before it:
   * the projector's subscription, woken by the commit of the events that an inline projection is
   * saving, then finds their view written instead of writing it a second time (which lost the
   * compare-and-set and read the view back, for about one order in six and most carrier registrations).
   */
  let queued: {
    view: StoredParcelView;
    expectedRevision: number;
    resolve: (written: boolean) => void;
    reject: (error: unknown) => void;
  }[] = [];
  const saveQueued = (view: StoredParcelView, expectedRevision: number) =>
    new Promise<boolean>((resolve, reject) => {
      if (queued.length === 0) setImmediate(commitQueued);
      queued.push({ view, expectedRevision, resolve, reject });
    });
  function commitQueued(): void {
    const group = queued;
    queued = [];
    if (group.length === 0) return;
    const outcomes: ({ written: boolean } | { error: unknown })[] = [];
    try {
      inWriteTransaction(db, () => {
        for (const { view, expectedRevision } of group) {
          try {
            outcomes.push({ written: saveOne(view, expectedRevision) });
          } catch (error) {
            outcomes.push({ error });
          }
        }
      });
    } catch (error) {
      for (const { reject } of group) reject(error);
      return;
    }
    for (const [i, { resolve, reject }] of group.entries()) {
      const outcome = outcomes[i]!;
      if ('written' in outcome) resolve(outcome.written);
      else reject(outcome.error);
    }
  }

  /** Before a read of the views, or a shred: the store is open, and the saves queued are committed. */
  const current = (): void => {
    open();
    commitQueued();
  };

  const checkpoints: ProjectionCheckpoints = {
    async load(subscriptionId) {
      open();
      return (loadCheckpoint.get(subscriptionId) as { position: number } | undefined)?.position;
    },
    async save(subscriptionId, position) {
      // After the saves queued before it, in the WAL's order: a crash that loses them loses this too.
      current();
      saveCheckpoint.run(subscriptionId, position);
    },
  };

  return {
    parcels: {
      async get(trackingNumber) {
        current();
        return parseDoc(get.get(trackingNumber));
      },
      async getForClient(clientId, trackingNumber) {
        current();
        return parseDoc(getForClient.get(trackingNumber, clientId));
      },
      async getPublicTracking(trackingNumber) {
        current();
        const view = parseDoc(get.get(trackingNumber));
        return view ? publicTrackingOf(view) : null;
      },
      async getManyForClient(clientId, trackingNumbers) {
        current();
        const rows = getMany.all(JSON.stringify(trackingNumbers), clientId) as {
          tracking_number: string;
          doc: string;
        }[];
        return new Map(rows.map((row) => [row.tracking_number, JSON.parse(row.doc) as StoredParcelView]));
      },
      async revisions(trackingNumbers) {
        current();
        const rows = revisions.all(JSON.stringify(trackingNumbers)) as { tracking_number: string; revision: number }[];
        return new Map(rows.map((row) => [row.tracking_number, row.revision]));
      },
      async getByReference(clientId, customTrackingNum) {
        current();
        return parseDoc(getByReference.get(clientId, customTrackingNum));
      },
      async getByPartnerTrackingNo(carrier, partnerTrackingNo) {
        current();
        return parseDoc(getByPartner.get(partnerTrackingNo, carrier));
      },
      async dueForErasure({ createdBefore, finalBefore, limit, clients }) {
        current();
        const cutoffs = [createdBefore.getTime(), finalBefore.getTime()] as const;
        const rows = (
          !clients
            ? dueForErasure.all(...cutoffs, limit)
            : 'only' in clients
              ? dueOfClients.all(...cutoffs, JSON.stringify(clients.only), limit)
              : dueOfOthers.all(...cutoffs, JSON.stringify(clients.except), limit)
        ) as { tracking_number: string }[];
        return rows.map((row) => row.tracking_number);
      },
      async openForManifest(clientId, carrier, limit) {
        current();
        return (openForManifest.all(clientId, carrier, limit) as { doc: string }[]).map(
          (row) => JSON.parse(row.doc) as StoredParcelView,
        );
      },
      async save(view, expectedRevision) {
        open();
        return saveQueued(view, expectedRevision);
      },
      async saveMany(entries) {
        open();
        return Promise.all(entries.map(({ view, expectedRevision }) => saveQueued(view, expectedRevision)));
      },
      checkpoints,
    },
    tokens: {
      async put(record) {
        open();
        putToken.run(record.clientId, record.tokenHash, record.issuedAt, record.expiresAt);
      },
      async findByHash(tokenHash) {
        open();
        const row = findToken.get(tokenHash) as TokenRow | undefined;
        if (!row) return null;
        const record: TokenRecord = {
          clientId: row.client_id,
          tokenHash: row.token_hash,
          issuedAt: row.issued_at,
          expiresAt: row.expires_at,
        };
        return record;
      },
    },
    idempotency: createSqliteIdempotencyStore(db, open),
    manifests: { ...createSqliteManifestStore(db, open), checkpoints },
    async shred() {
      current();
      // The WAL still holds the pages as they were before (the database's old bytes are zeroed).
      truncateWal(db);
    },
    async ping() {
      open();
      get.get('');
    },
    async close() {
      if (closed) return;
      closed = true;
      commitQueued();
      db.close();
    },
  };
}

/** Adds the retention columns to a file of an earlier version, and fills them in from each stored view, in one transaction. */
function addRetentionColumns(db: DatabaseSync, columns: ReadonlySet<string>): void {
  inWriteTransaction(db, () => {
    for (const column of retentionColumns)
      if (!columns.has(column)) db.exec(`ALTER TABLE parcels ADD COLUMN ${column} INTEGER`);
    const fill = db.prepare(
      'UPDATE parcels SET retention_created_ms = ?, retention_final_ms = ? WHERE tracking_number = ?',
    );
    for (const row of db.prepare('SELECT tracking_number, doc FROM parcels').all() as {
      tracking_number: string;
      doc: string;
    }[])
      fill.run(...retentionValues(JSON.parse(row.doc) as StoredParcelView), row.tracking_number);
  });
}
