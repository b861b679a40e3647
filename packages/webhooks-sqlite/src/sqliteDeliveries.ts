/** The delivery log and queue on SQLite, in the webhook store's file (its own connection; WAL). */
import { DatabaseSync } from 'node:sqlite';
import { inWriteTransaction, shredSqliteFile } from '@parcel-logistics/sqlite';
import type { WebhookDeliveries } from '@parcel-logistics/webhooks';
import {
  attemptColumns,
  attemptOf,
  messageOf,
  pendingOf,
  replayColumns,
  replayOf,
} from '@parcel-logistics/webhooks/adapter';
import type { AttemptRow, MessageRow, ReplayRow } from '@parcel-logistics/webhooks/adapter';
import { migrateDeliveries } from './deliveriesSchema.ts';

export function createSqliteWebhookDeliveries(options: { file: string; busyTimeoutMs?: number }): WebhookDeliveries {
  const db = new DatabaseSync(options.file, { timeout: options.busyTimeoutMs ?? 5000 });
  db.exec('PRAGMA journal_mode = WAL');
  migrateDeliveries(db);
  const transaction = <T>(work: () => T): T => inWriteTransaction(db, work);
  /**
   * What is queued or asked for must survive a power loss: the fan-out's checkpoint moves once its
   * page is queued, and a redelivery or a replay was answered as accepted. Those commits are synced
   * (FULL), and a synced commit makes the whole WAL durable, the commits before it included. The
   * rest (attempts, settlements, retries, leases, replay progress) are not synced (NORMAL): they
   * survive a crash of the process, and a power loss may lose the last of them, so a message settled
   * just before goes out again, with its webhook-id (at least once), and a replay redoes a page.
   */
  db.exec('PRAGMA synchronous = NORMAL');
  const synced = <T>(work: () => T): T => {
    db.exec('PRAGMA synchronous = FULL');
    try {
      return transaction(work);
    } finally {
      db.exec('PRAGMA synchronous = NORMAL');
    }
  };

  const insert =
    db.prepare(`INSERT INTO webhook_deliveries (endpoint_id, event_id, position, body, next_attempt_at, state, queued_at)
    VALUES (?, ?, ?, ?, ?, 'pending', ?) ON CONFLICT DO NOTHING`);
  const upsert =
    db.prepare(`INSERT INTO webhook_deliveries (endpoint_id, event_id, position, body, next_attempt_at, state, queued_at)
    VALUES (?, ?, ?, ?, ?, 'pending', ?) ON CONFLICT (endpoint_id, event_id) DO UPDATE SET body = excluded.body, attempts = 0,
    next_attempt_at = excluded.next_attempt_at, failing_since = NULL, state = 'pending', queued_at = excluded.queued_at, settled_at = NULL`);
  // The head of each endpoint's pending messages is the only one that may be due: later ones wait behind it.
  const due = db.prepare(`SELECT endpoint_id FROM webhook_deliveries d WHERE state = 'pending' AND next_attempt_at <= ?
    AND position = (SELECT min(position) FROM webhook_deliveries WHERE endpoint_id = d.endpoint_id AND state = 'pending')`);
  const head = db.prepare(
    "SELECT * FROM webhook_deliveries WHERE endpoint_id = ? AND state = 'pending' ORDER BY position, event_id LIMIT 1",
  );
  const settle = db.prepare(
    'UPDATE webhook_deliveries SET state = ?, attempts = ?, settled_at = ? WHERE endpoint_id = ? AND event_id = ?',
  );
  const retry = db.prepare(
    'UPDATE webhook_deliveries SET attempts = ?, next_attempt_at = ?, failing_since = ? WHERE endpoint_id = ? AND event_id = ?',
  );
  const recordAttempt =
    db.prepare(`INSERT INTO webhook_attempts (endpoint_id, event_id, attempt, at, duration_ms, status, answer, reason)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const newest = db.prepare(
    'SELECT * FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY position DESC, event_id DESC LIMIT ?',
  );
  const newestBefore =
    db.prepare(`SELECT * FROM webhook_deliveries WHERE endpoint_id = ? AND (position, event_id) < (?, ?)
    ORDER BY position DESC, event_id DESC LIMIT ?`);
  const attempts =
    db.prepare(`SELECT * FROM webhook_attempts WHERE endpoint_id = ? AND seq < ? AND (? IS NULL OR event_id = ?)
    ORDER BY seq DESC LIMIT ?`);
  const stateOf = db.prepare('SELECT state FROM webhook_deliveries WHERE endpoint_id = ? AND event_id = ?');
  const redeliver =
    db.prepare(`UPDATE webhook_deliveries SET attempts = 0, next_attempt_at = ?, failing_since = NULL, state = 'pending',
    queued_at = ?, settled_at = NULL WHERE endpoint_id = ? AND event_id = ?`);
  const requestReplay =
    db.prepare(`INSERT INTO webhook_replays (id, endpoint_id, since, requested_at, status, position, scanned, queued, finished_at)
    SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM webhook_replays WHERE endpoint_id = ? AND status <> 'done')`);
  const getReplay = db.prepare('SELECT * FROM webhook_replays WHERE endpoint_id = ? AND id = ?');
  const openReplays = db.prepare("SELECT * FROM webhook_replays WHERE status <> 'done' ORDER BY requested_at, id");
  const updateReplay = db.prepare(
    'UPDATE webhook_replays SET status = ?, position = ?, scanned = ?, queued = ?, finished_at = ? WHERE id = ?',
  );
  const pruneMessages = db.prepare("DELETE FROM webhook_deliveries WHERE state <> 'pending' AND settled_at < ?");
  const pruneAttempts = db.prepare('DELETE FROM webhook_attempts WHERE at < ?');
  const pruneReplays = db.prepare("DELETE FROM webhook_replays WHERE status = 'done' AND finished_at < ?");
  const drops = ['webhook_deliveries', 'webhook_attempts', 'webhook_replays'].map((table) =>
    db.prepare(`DELETE FROM ${table} WHERE endpoint_id = ?`),
  );
  // One statement: a claim is taken, renewed or refused as a whole.
  const claim = db.prepare(`INSERT INTO webhook_leases (endpoint_id, owner, expires_at) VALUES (?, ?, ?)
    ON CONFLICT (endpoint_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
    WHERE webhook_leases.owner = excluded.owner OR webhook_leases.expires_at <= ?`);
  const release = db.prepare('DELETE FROM webhook_leases WHERE endpoint_id = ? AND owner = ?');

  return {
    async enqueue(deliveries, now) {
      if (deliveries.length === 0) return;
      synced(() => {
        for (const d of deliveries)
          insert.run(d.endpointId, d.eventId, d.position, d.body, now.getTime(), now.getTime());
      });
    },
    async requeue(deliveries, now) {
      if (deliveries.length === 0) return;
      synced(() => {
        for (const d of deliveries)
          upsert.run(d.endpointId, d.eventId, d.position, d.body, now.getTime(), now.getTime());
      });
    },
    async dueEndpoints(now) {
      return (due.all(now.getTime()) as unknown as { endpoint_id: string }[]).map((r) => r.endpoint_id);
    },
    async head(endpointId) {
      const row = head.get(endpointId) as unknown as MessageRow | undefined;
      return row ? pendingOf(row) : undefined;
    },
    async settle(endpointId, eventId, state, count, at) {
      settle.run(state, count, at.getTime(), endpointId, eventId);
    },
    async retryAt(endpointId, eventId, count, at, failingSince) {
      retry.run(count, at.getTime(), failingSince.getTime(), endpointId, eventId);
    },
    async recordAttempt(a) {
      recordAttempt.run(...attemptColumns(a));
    },
    async messages(endpointId, { limit, before }) {
      const rows = before
        ? newestBefore.all(endpointId, before.position, before.eventId, limit)
        : newest.all(endpointId, limit);
      return (rows as unknown as MessageRow[]).map(messageOf);
    },
    async attempts(endpointId, { limit, before, eventId }) {
      const rows = attempts.all(endpointId, before ?? Number.MAX_SAFE_INTEGER, eventId ?? null, eventId ?? null, limit);
      return (rows as unknown as AttemptRow[]).map(attemptOf);
    },
    async redeliver(endpointId, eventId, now) {
      return synced(() => {
        const row = stateOf.get(endpointId, eventId) as { state: string } | undefined;
        if (!row) return 'unknown';
        if (row.state === 'pending') return 'pending';
        redeliver.run(now.getTime(), now.getTime(), endpointId, eventId);
        return 'queued';
      });
    },
    async requestReplay(r) {
      const values = replayColumns(r);
      return synced(() => requestReplay.run(...values, r.endpointId).changes === 1) ? 'requested' : 'busy';
    },
    async getReplay(endpointId, id) {
      const row = getReplay.get(endpointId, id) as unknown as ReplayRow | undefined;
      return row ? replayOf(row) : undefined;
    },
    async openReplays() {
      return (openReplays.all() as unknown as ReplayRow[]).map(replayOf);
    },
    async updateReplay(r) {
      updateReplay.run(r.status, r.position, r.scanned, r.queued, r.finishedAt?.getTime() ?? null, r.id);
    },
    async prune(before) {
      const t = before.getTime();
      return transaction(() => ({
        messages: Number(pruneMessages.run(t).changes),
        attempts: Number(pruneAttempts.run(t).changes),
        replays: Number(pruneReplays.run(t).changes),
      }));
    },
    async dropEndpoint(endpointId) {
      transaction(() => drops.forEach((drop) => drop.run(endpointId)));
    },
    async claim(endpointId, owner, now, until) {
      return claim.run(endpointId, owner, until.getTime(), now.getTime()).changes === 1;
    },
    async release(endpointId, owner) {
      release.run(endpointId, owner);
    },
    async ping() {
      db.prepare('SELECT 1').get();
    },
    async close() {
      if (db.isOpen) db.close();
    },
  };
}

/**
 * Rewrites every stored body of the delivery log with `rewrite` (a one-time migration: bodies
 * written before they left personal values out, docs/personal-data.md), zeroing what it
 * overwrites, then rebuilds the file without free pages and truncates its WAL. Run before the
 * deliveries open.
 */
export function rewriteSqliteDeliveryBodies(file: string, rewrite: (body: unknown) => unknown): number {
  return shredSqliteFile(file, (db) => {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'webhook_deliveries'").get();
    if (!table) return 0;
    const rows = db.prepare('SELECT endpoint_id, event_id, body FROM webhook_deliveries').all() as {
      endpoint_id: string;
      event_id: string;
      body: string;
    }[];
    const update = db.prepare('UPDATE webhook_deliveries SET body = ? WHERE endpoint_id = ? AND event_id = ?');
    inWriteTransaction(db, () => {
      for (const r of rows) update.run(JSON.stringify(rewrite(JSON.parse(r.body))), r.endpoint_id, r.event_id);
    });
    return rows.length;
  });
}
