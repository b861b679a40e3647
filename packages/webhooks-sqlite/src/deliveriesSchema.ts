/**
 * The delivery tables in webhooks.db, and the upgrade of a file written before the delivery log:
 * its queue held only pending rows (a delivered one was deleted), so the new columns default to
 * `pending` and nothing queued is lost.
 */
import type { DatabaseSync } from 'node:sqlite';
import { inWriteTransaction } from '@parcel-logistics/sqlite';

const tables = `
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  endpoint_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  body TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  failing_since INTEGER,
  PRIMARY KEY (endpoint_id, event_id)
);
CREATE TABLE IF NOT EXISTS webhook_attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  status INTEGER,
  answer TEXT NOT NULL,
  reason TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_attempts_by_endpoint ON webhook_attempts (endpoint_id, seq);
CREATE INDEX IF NOT EXISTS webhook_attempts_by_time ON webhook_attempts (at);
CREATE TABLE IF NOT EXISTS webhook_replays (
  id TEXT PRIMARY KEY,
  endpoint_id TEXT NOT NULL,
  since INTEGER NOT NULL,
  requested_at INTEGER NOT NULL,
  status TEXT NOT NULL,
  position INTEGER NOT NULL,
  scanned INTEGER NOT NULL,
  queued INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX IF NOT EXISTS webhook_replays_by_endpoint ON webhook_replays (endpoint_id, status);
CREATE TABLE IF NOT EXISTS webhook_leases (
  endpoint_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);`;

/** Columns the delivery log added to webhook_deliveries, with what an older row gets. */
const added: readonly [string, string][] = [
  ['state', "TEXT NOT NULL DEFAULT 'pending'"],
  ['queued_at', 'INTEGER NOT NULL DEFAULT 0'],
  ['settled_at', 'INTEGER'],
];

export function migrateDeliveries(db: DatabaseSync): void {
  inWriteTransaction(db, () => {
    db.exec(tables);
    const present = new Set(
      (db.prepare('PRAGMA table_info(webhook_deliveries)').all() as { name: string }[]).map((c) => c.name),
    );
    const missing = added.filter(([name]) => !present.has(name));
    for (const [name, type] of missing) db.exec(`ALTER TABLE webhook_deliveries ADD COLUMN ${name} ${type}`);
    // An older row was queued no later than its first attempt was due.
    if (missing.length > 0) db.exec('UPDATE webhook_deliveries SET queued_at = next_attempt_at WHERE queued_at = 0');
    // webhook_deliveries_queue holds only what is pending: the head of a queue and the due endpoints are
    // found without reading the settled messages that stay until retention (both were scans of them).
    db.exec(`DROP INDEX IF EXISTS webhook_deliveries_in_order;
      CREATE INDEX IF NOT EXISTS webhook_deliveries_pending ON webhook_deliveries (endpoint_id, state, position);
      CREATE INDEX IF NOT EXISTS webhook_deliveries_newest ON webhook_deliveries (endpoint_id, position, event_id);
      CREATE INDEX IF NOT EXISTS webhook_deliveries_settled ON webhook_deliveries (settled_at);
      CREATE INDEX IF NOT EXISTS webhook_deliveries_queue ON webhook_deliveries (endpoint_id, position, event_id) WHERE state = 'pending';`);
  });
}
