/**
 * The webhook store on PostgreSQL, the distributed wiring's: endpoints are account state, shared
 * by every gateway and webhook instance. The cap is checked and the row written in one
 * transaction under an advisory lock per account, so concurrent creates on two gateways cannot
 * both pass it (a count in the insert's own statement would not see the other's uncommitted row).
 */
import type { CreateOutcome, WebhookEndpoint, WebhookStore } from '@parcel-logistics/webhooks';
import { endpointColumns, endpointOfRow } from '@parcel-logistics/webhooks/adapter';
import type { EndpointRow } from '@parcel-logistics/webhooks/adapter';
import { inTransaction } from '@parcel-logistics/postgres';
import { capLockClass, openPool, schemaKey } from './postgresSchema.ts';
import type { PostgresWebhooksOptions } from './postgresSchema.ts';

const columnsOf = (e: WebhookEndpoint) => endpointColumns(e, (on) => on);

const COLUMNS =
  'client_id, id, url, event_types, description, enabled, disabled_reason, secrets, created_at::text, updated_at::text';

export async function createPostgresWebhookStore(options: PostgresWebhooksOptions): Promise<WebhookStore> {
  const { pool, tables: t } = await openPool(options, 'parcel-webhook-endpoints');
  const key = schemaKey(t.schema);
  const sql = {
    lock: `SELECT pg_advisory_xact_lock(${capLockClass}, hashtext($1) # ${key})`,
    insert: `INSERT INTO ${t.endpoints} (client_id, id, url, event_types, description, enabled, disabled_reason, secrets, created_at, updated_at)
      SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 WHERE (SELECT count(*) FROM ${t.endpoints} WHERE client_id = $1) < $11`,
    // The text aliases of COLUMNS shadow the columns in ORDER BY: `e.` sorts by the numbers.
    list: `SELECT ${COLUMNS} FROM ${t.endpoints} AS e WHERE client_id = $1 ORDER BY e.created_at, e.id`,
    get: `SELECT ${COLUMNS} FROM ${t.endpoints} WHERE client_id = $1 AND id = $2`,
    find: `SELECT ${COLUMNS} FROM ${t.endpoints} WHERE id = $1`,
    update: `UPDATE ${t.endpoints} SET url = $1, event_types = $2, description = $3, enabled = $4, disabled_reason = $5,
      secrets = $6, created_at = $7, updated_at = $8 WHERE client_id = $9 AND id = $10`,
    delete: `DELETE FROM ${t.endpoints} WHERE client_id = $1 AND id = $2`,
  };
  const one = async (text: string, values: unknown[]) => {
    const { rows } = await pool.query<EndpointRow>(text, values);
    return rows[0] ? endpointOfRow(rows[0]) : undefined;
  };

  return {
    async create(endpoint, maxPerAccount): Promise<CreateOutcome> {
      // Under READ COMMITTED the insert's statement, begun after the lock, counts every endpoint committed before.
      const inserted = await inTransaction(pool, async (client) => {
        await client.query(sql.lock, [endpoint.clientId]);
        return (await client.query(sql.insert, [endpoint.clientId, endpoint.id, ...columnsOf(endpoint), maxPerAccount]))
          .rowCount;
      });
      return inserted === 1 ? 'created' : 'limit';
    },
    async list(clientId) {
      return (await pool.query<EndpointRow>(sql.list, [clientId])).rows.map(endpointOfRow);
    },
    get: (clientId, id) => one(sql.get, [clientId, id]),
    find: (id) => one(sql.find, [id]),
    async update(endpoint) {
      return (await pool.query(sql.update, [...columnsOf(endpoint), endpoint.clientId, endpoint.id])).rowCount === 1;
    },
    async delete(clientId, id) {
      return (await pool.query(sql.delete, [clientId, id])).rowCount === 1;
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}
