/**
 * The webhook store on SQLite (node:sqlite), the embedded wiring's. The cap is checked and the row
 * written in one statement, so two concurrent creates cannot both pass it.
 */
import { DatabaseSync } from 'node:sqlite';
import type { CreateOutcome, WebhookEndpoint, WebhookStore } from '@parcel-logistics/webhooks';
import { endpointColumns, endpointOfRow } from '@parcel-logistics/webhooks/adapter';
import type { EndpointRow } from '@parcel-logistics/webhooks/adapter';

const schema = `
CREATE TABLE IF NOT EXISTS webhook_endpoints (
  client_id TEXT NOT NULL,
  id TEXT NOT NULL,
  url TEXT NOT NULL,
  event_types TEXT NOT NULL,
  description TEXT NOT NULL,
  enabled INTEGER NOT NULL,
  disabled_reason TEXT NOT NULL,
  secrets TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (client_id, id)
);
CREATE UNIQUE INDEX IF NOT EXISTS webhook_endpoints_by_id ON webhook_endpoints (id);`;

const columnsOf = (e: WebhookEndpoint) => endpointColumns(e, (on) => (on ? 1 : 0));

const COLUMNS =
  'client_id, id, url, event_types, description, enabled, disabled_reason, secrets, created_at, updated_at';

export function createSqliteWebhookStore(options: { file: string; busyTimeoutMs?: number }): WebhookStore {
  const db = new DatabaseSync(options.file, { timeout: options.busyTimeoutMs ?? 5000 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(schema);
  const insert = db.prepare(`INSERT INTO webhook_endpoints (${COLUMNS})
    SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM webhook_endpoints WHERE client_id = ?) < ?`);
  const list = db.prepare(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE client_id = ? ORDER BY created_at, id`);
  const get = db.prepare(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE client_id = ? AND id = ?`);
  const find = db.prepare(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = ?`);
  const update =
    db.prepare(`UPDATE webhook_endpoints SET url = ?, event_types = ?, description = ?, enabled = ?, disabled_reason = ?,
    secrets = ?, created_at = ?, updated_at = ? WHERE client_id = ? AND id = ?`);
  const remove = db.prepare('DELETE FROM webhook_endpoints WHERE client_id = ? AND id = ?');

  return {
    async create(endpoint, maxPerAccount): Promise<CreateOutcome> {
      const { changes } = insert.run(
        endpoint.clientId,
        endpoint.id,
        ...columnsOf(endpoint),
        endpoint.clientId,
        maxPerAccount,
      );
      return changes === 1 ? 'created' : 'limit';
    },
    async list(clientId) {
      return (list.all(clientId) as unknown as EndpointRow[]).map(endpointOfRow);
    },
    async get(clientId, id) {
      const row = get.get(clientId, id) as unknown as EndpointRow | undefined;
      return row ? endpointOfRow(row) : undefined;
    },
    async find(id) {
      const row = find.get(id) as unknown as EndpointRow | undefined;
      return row ? endpointOfRow(row) : undefined;
    },
    async update(endpoint) {
      return update.run(...columnsOf(endpoint), endpoint.clientId, endpoint.id).changes === 1;
    },
    async delete(clientId, id) {
      return remove.run(clientId, id).changes === 1;
    },
    async close() {
      if (db.isOpen) db.close();
    },
  };
}
