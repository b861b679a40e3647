/** The delivery queue on SQLite, in the webhook store's file (its own connection; WAL). */
import { DatabaseSync } from 'node:sqlite';
import type { PendingDelivery, WebhookDeliveries } from '@parcel/webhooks';

const schema = `
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
CREATE INDEX IF NOT EXISTS webhook_deliveries_in_order ON webhook_deliveries (endpoint_id, position);
CREATE TABLE IF NOT EXISTS webhook_leases (
  endpoint_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);`;

interface Row {
  endpoint_id: string;
  event_id: string;
  position: number;
  body: string;
  attempts: number;
  next_attempt_at: number;
  failing_since: number | null;
}

export function createSqliteWebhookDeliveries(options: { file: string; busyTimeoutMs?: number }): WebhookDeliveries {
  const db = new DatabaseSync(options.file, { timeout: options.busyTimeoutMs ?? 5000 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(schema);
  const insert = db.prepare(`INSERT INTO webhook_deliveries (endpoint_id, event_id, position, body, next_attempt_at)
    VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`);
  // The head of each endpoint's queue is the only row that may be due: later rows wait behind it.
  const due = db.prepare(`SELECT endpoint_id FROM webhook_deliveries d
    WHERE position = (SELECT min(position) FROM webhook_deliveries WHERE endpoint_id = d.endpoint_id) AND next_attempt_at <= ?`);
  // Ties (test events all sit behind the log) go in the order queued.
  const head = db.prepare('SELECT * FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY position, rowid LIMIT 1');
  const remove = db.prepare('DELETE FROM webhook_deliveries WHERE endpoint_id = ? AND event_id = ?');
  const retry = db.prepare('UPDATE webhook_deliveries SET attempts = ?, next_attempt_at = ?, failing_since = ? WHERE endpoint_id = ? AND event_id = ?');
  const drop = db.prepare('DELETE FROM webhook_deliveries WHERE endpoint_id = ?');
  // One statement: a claim is taken, renewed or refused as a whole.
  const claim = db.prepare(`INSERT INTO webhook_leases (endpoint_id, owner, expires_at) VALUES (?, ?, ?)
    ON CONFLICT (endpoint_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
    WHERE webhook_leases.owner = excluded.owner OR webhook_leases.expires_at <= ?`);
  const release = db.prepare('DELETE FROM webhook_leases WHERE endpoint_id = ? AND owner = ?');

  return {
    async enqueue(deliveries, now) {
      if (deliveries.length === 0) return;
      db.exec('BEGIN IMMEDIATE');
      try {
        for (const d of deliveries) insert.run(d.endpointId, d.eventId, d.position, d.body, now.getTime());
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    async dueEndpoints(now) {
      return (due.all(now.getTime()) as unknown as { endpoint_id: string }[]).map((r) => r.endpoint_id);
    },
    async head(endpointId): Promise<PendingDelivery | undefined> {
      const row = head.get(endpointId) as unknown as Row | undefined;
      if (!row) return undefined;
      return {
        endpointId: row.endpoint_id,
        eventId: row.event_id,
        position: Number(row.position),
        body: row.body,
        attempts: Number(row.attempts),
        nextAttemptAt: new Date(Number(row.next_attempt_at)),
        failingSince: row.failing_since === null ? null : new Date(Number(row.failing_since)),
      };
    },
    async remove(endpointId, eventId) {
      remove.run(endpointId, eventId);
    },
    async retryAt(endpointId, eventId, attempts, at, failingSince) {
      retry.run(attempts, at.getTime(), failingSince.getTime(), endpointId, eventId);
    },
    async claim(endpointId, owner, now, until) {
      return claim.run(endpointId, owner, until.getTime(), now.getTime()).changes === 1;
    },
    async release(endpointId, owner) {
      release.run(endpointId, owner);
    },
    async dropEndpoint(endpointId) {
      drop.run(endpointId);
    },
    async ping() {
      db.prepare('SELECT 1').get();
    },
    async close() {
      if (db.isOpen) db.close();
    },
  };
}
