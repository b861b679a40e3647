/**
 * The account store on SQLite (node:sqlite), the embedded wiring's: `accounts.db` in the data
 * directory. Each account is one row holding its record as JSON (its keys sealed); a change, its
 * audit entry and the version's step are one transaction.
 */
import { DatabaseSync } from 'node:sqlite';
import { inWriteTransaction } from '@parcel-logistics/sqlite';
import { auditEntryOf, type AccountRecord, type AccountStore, type AuditEntry } from '@parcel-logistics/accounts';

const schema = `
CREATE TABLE IF NOT EXISTS accounts (
  api_name TEXT PRIMARY KEY,
  client_id TEXT NOT NULL UNIQUE,
  revision INTEGER NOT NULL,
  record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS account_key_uses (key_id TEXT PRIMARY KEY, last_used_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS account_audit (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  api_name TEXT NOT NULL,
  detail TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS account_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT OR IGNORE INTO account_meta (name, value) VALUES ('version', 0), ('seeded', 0);`;

interface AuditRow {
  seq: number;
  at: string;
  actor: string;
  action: AuditEntry['action'];
  api_name: string;
  detail: string;
}

export function createSqliteAccountStore(options: { file: string; busyTimeoutMs?: number }): AccountStore {
  const db = new DatabaseSync(options.file, { timeout: options.busyTimeoutMs ?? 5000 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(schema);
  const q = {
    version: db.prepare("SELECT value FROM account_meta WHERE name = 'version'"),
    bump: db.prepare("UPDATE account_meta SET value = value + 1 WHERE name = 'version'"),
    seeded: db.prepare("SELECT value FROM account_meta WHERE name = 'seeded'"),
    markSeeded: db.prepare("UPDATE account_meta SET value = 1 WHERE name = 'seeded'"),
    list: db.prepare('SELECT record FROM accounts ORDER BY api_name'),
    get: db.prepare('SELECT record FROM accounts WHERE api_name = ?'),
    insert: db.prepare('INSERT OR IGNORE INTO accounts (api_name, client_id, revision, record) VALUES (?, ?, ?, ?)'),
    update: db.prepare('UPDATE accounts SET revision = ?, record = ? WHERE api_name = ? AND revision = ?'),
    audit: db.prepare('INSERT INTO account_audit (at, actor, action, api_name, detail) VALUES (?, ?, ?, ?, ?)'),
    auditPage: db.prepare(
      'SELECT seq, at, actor, action, api_name, detail FROM account_audit WHERE seq < ? ORDER BY seq DESC LIMIT ?',
    ),
    touch: db.prepare(
      `INSERT INTO account_key_uses (key_id, last_used_at) VALUES (?, ?)
       ON CONFLICT (key_id) DO UPDATE SET last_used_at = max(last_used_at, excluded.last_used_at)`,
    ),
    used: db.prepare('SELECT last_used_at FROM account_key_uses WHERE key_id = ?'),
  };
  const version = () => Number((q.version.get() as { value: number }).value);
  const recordOf = (row: unknown) => JSON.parse((row as { record: string }).record) as AccountRecord;
  const writeAudit = (a: Omit<AuditEntry, 'seq'>) =>
    q.audit.run(a.at, a.actor, a.action, a.apiName, JSON.stringify(a.detail));

  /** Runs `work` in one write transaction; false from it rolls back. */
  function transaction(work: () => boolean): boolean {
    db.exec('BEGIN IMMEDIATE');
    try {
      if (!work()) {
        db.exec('ROLLBACK');
        return false;
      }
      q.bump.run();
      db.exec('COMMIT');
      return true;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }

  return {
    async version() {
      return version();
    },
    async list() {
      db.exec('BEGIN');
      try {
        return { version: version(), accounts: q.list.all().map(recordOf) };
      } finally {
        db.exec('COMMIT');
      }
    },
    async get(apiName) {
      const row = q.get.get(apiName);
      return row ? recordOf(row) : undefined;
    },
    async put(next, expected, audit) {
      const written = transaction(() => {
        const { changes } =
          expected === 0
            ? q.insert.run(next.apiName, next.clientId, next.revision, JSON.stringify(next))
            : q.update.run(next.revision, JSON.stringify(next), next.apiName, expected);
        if (changes !== 1) return false;
        writeAudit(audit);
        return true;
      });
      return written ? 'written' : 'conflict';
    },
    async seed(accounts, audit) {
      return transaction(() => {
        if (Number((q.seeded.get() as { value: number }).value) === 1) return false;
        for (const a of accounts) q.insert.run(a.apiName, a.clientId, a.revision, JSON.stringify(a));
        for (const entry of audit) writeAudit(entry);
        q.markSeeded.run();
        return true;
      });
    },
    async touch(uses) {
      inWriteTransaction(db, () => {
        for (const [keyId, at] of uses) q.touch.run(keyId, at);
      });
    },
    async lastUsed(keyIds) {
      const found = new Map<string, string>();
      for (const keyId of keyIds) {
        const row = q.used.get(keyId) as { last_used_at: string } | undefined;
        if (row) found.set(keyId, row.last_used_at);
      }
      return found;
    },
    async audit({ before, limit }) {
      const rows = q.auditPage.all(before ?? Number.MAX_SAFE_INTEGER, limit) as unknown as AuditRow[];
      return rows.map((r) => auditEntryOf(r, JSON.parse(r.detail) as Record<string, unknown>));
    },
    async ping() {
      q.version.get();
    },
    async close() {
      if (db.isOpen) db.close();
    },
  };
}
