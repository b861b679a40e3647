/**
 * One-time migrations of an embedded event store's file (EventRewriter of the port), run by the
 * composition root before the store opens: its own connection, a table of the migrations that ran,
 * and secure deletion with a WAL checkpoint so that no former bytes of a rewritten event stay in
 * the file or its WAL.
 */
import { DatabaseSync } from 'node:sqlite';
import type { EventRewriter, StoredRow } from '@parcel-logistics/eventstore';
import { inWriteTransaction, vacuumAndTruncateWal, zeroDeletedContent } from '@parcel-logistics/sqlite';

const schema = `
CREATE TABLE IF NOT EXISTS migrations (
  name TEXT NOT NULL PRIMARY KEY,
  ran_at TEXT NOT NULL,
  detail TEXT NOT NULL
) WITHOUT ROWID;`;

export function createSqliteEventRewriter(options: { file: string; busyTimeoutMs?: number }): EventRewriter {
  const db = new DatabaseSync(options.file, { timeout: options.busyTimeoutMs ?? 5000 });
  db.exec('PRAGMA journal_mode = WAL');
  // A rewritten row's former bytes are zeroed, not left in free space.
  zeroDeletedContent(db);
  db.exec(schema);
  const hasEvents = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").get();
  const ranStmt = db.prepare('SELECT 1 FROM migrations WHERE name = ?');
  const recordStmt = db.prepare('INSERT OR REPLACE INTO migrations (name, ran_at, detail) VALUES (?, ?, ?)');
  const updateStmt = hasEvents ? db.prepare('UPDATE events SET type = ?, data = ? WHERE event_id = ?') : undefined;

  return {
    async ran(name) {
      return ranStmt.get(name) !== undefined;
    },
    async page(types, afterPosition, limit) {
      if (!hasEvents) return [];
      const rows = db
        .prepare(
          `SELECT global_position, event_id, stream_name, type, data FROM events
           WHERE global_position > ? AND type IN (SELECT value FROM json_each(?))
           ORDER BY global_position LIMIT ?`,
        )
        .all(afterPosition, JSON.stringify(types), limit) as {
        global_position: number;
        event_id: string;
        stream_name: string;
        type: string;
        data: string;
      }[];
      return rows.map((r): StoredRow => ({
        globalPosition: Number(r.global_position),
        id: r.event_id,
        streamName: r.stream_name,
        type: r.type,
        data: JSON.parse(r.data) as unknown,
      }));
    },
    async rewrite(events) {
      if (!updateStmt || events.length === 0) return;
      inWriteTransaction(db, () => {
        for (const e of events) updateStmt.run(e.type, JSON.stringify(e.data), e.id);
      });
    },
    async record(name, detail) {
      recordStmt.run(name, new Date().toISOString(), JSON.stringify(detail));
    },
    async shred() {
      vacuumAndTruncateWal(db);
    },
    async close() {
      db.close();
    },
  };
}
