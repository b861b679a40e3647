/**
 * The delivery port on PostgreSQL, shared by the webhook service's instances and the gateways:
 * the queue (pending messages, in log order per endpoint), the delivery log (postgresDeliveryLog.ts)
 * and the endpoint leases. A lease row (owner, expiry) per endpoint is taken, renewed or refused in
 * one conditional upsert: the row lock serialises claimants, and the condition is judged on the row
 * as the last of them left it, so two instances never both drain one endpoint's queue.
 */
import type { WebhookDeliveries } from '@parcel-logistics/webhooks';
import { pendingOf } from '@parcel-logistics/webhooks/adapter';
import type { MessageRow } from '@parcel-logistics/webhooks/adapter';
import { deliveryLog, MESSAGE_COLUMNS } from './postgresDeliveryLog.ts';
import { inTransaction } from '@parcel-logistics/postgres';
import { openPool } from './postgresSchema.ts';
import type { PostgresWebhooksOptions } from './postgresSchema.ts';

export async function createPostgresWebhookDeliveries(options: PostgresWebhooksOptions): Promise<WebhookDeliveries> {
  const { pool, tables: t } = await openPool(options, 'parcel-webhook-deliveries');
  const insert = `INSERT INTO ${t.deliveries} AS d (endpoint_id, event_id, position, body, next_attempt_at, state, queued_at)
    SELECT e.endpoint_id, e.event_id, e.position, e.body, $5, 'pending', $5
      FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS e(endpoint_id, event_id, position, body)`;
  const sql = {
    // A message the endpoint already has, in any state, is left as it is.
    enqueue: `${insert} ON CONFLICT DO NOTHING`,
    requeue: `${insert} ON CONFLICT (endpoint_id, event_id) DO UPDATE SET body = excluded.body, attempts = 0, next_attempt_at = excluded.next_attempt_at,
      failing_since = NULL, state = 'pending', queued_at = excluded.queued_at, settled_at = NULL`,
    // The head of each endpoint's pending messages is the only one that may be due: later ones wait behind it.
    due: `SELECT endpoint_id FROM (SELECT DISTINCT ON (endpoint_id) endpoint_id, next_attempt_at FROM ${t.deliveries}
      WHERE state = 'pending' ORDER BY endpoint_id, position, event_id) AS heads WHERE next_attempt_at <= $1`,
    head: `SELECT ${MESSAGE_COLUMNS} FROM ${t.deliveries} AS m WHERE endpoint_id = $1 AND state = 'pending' ORDER BY m.position, m.event_id LIMIT 1`,
    settle: `UPDATE ${t.deliveries} SET state = $3, attempts = $4, settled_at = $5 WHERE endpoint_id = $1 AND event_id = $2`,
    retry: `UPDATE ${t.deliveries} SET attempts = $3, next_attempt_at = $4, failing_since = $5 WHERE endpoint_id = $1 AND event_id = $2`,
    drops: [t.deliveries, t.attempts, t.replays].map((table) => `DELETE FROM ${table} WHERE endpoint_id = $1`),
    claim: `INSERT INTO ${t.leases} AS l (endpoint_id, owner, expires_at) VALUES ($1, $2, $4)
      ON CONFLICT (endpoint_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
      WHERE l.owner = excluded.owner OR l.expires_at <= $3`,
    release: `DELETE FROM ${t.leases} WHERE endpoint_id = $1 AND owner = $2`,
  };
  const queue = (text: string) => async (deliveries: Parameters<WebhookDeliveries['enqueue']>[0], now: Date) => {
    if (deliveries.length === 0) return;
    const column = <K extends keyof (typeof deliveries)[number]>(k: K) => deliveries.map((d) => d[k]);
    await pool.query(text, [
      column('endpointId'),
      column('eventId'),
      column('position'),
      column('body'),
      now.getTime(),
    ]);
  };

  return {
    enqueue: queue(sql.enqueue),
    requeue: queue(sql.requeue),
    async dueEndpoints(now) {
      return (await pool.query<{ endpoint_id: string }>(sql.due, [now.getTime()])).rows.map((r) => r.endpoint_id);
    },
    async head(endpointId) {
      const row = (await pool.query<MessageRow>(sql.head, [endpointId])).rows[0];
      return row ? pendingOf(row) : undefined;
    },
    async settle(endpointId, eventId, state, attempts, at) {
      await pool.query(sql.settle, [endpointId, eventId, state, attempts, at.getTime()]);
    },
    async retryAt(endpointId, eventId, attempts, at, failingSince) {
      await pool.query(sql.retry, [endpointId, eventId, attempts, at.getTime(), failingSince.getTime()]);
    },
    ...deliveryLog(pool, t),
    async dropEndpoint(endpointId) {
      await inTransaction(pool, async (client) => {
        for (const drop of sql.drops) await client.query(drop, [endpointId]);
      });
    },
    async claim(endpointId, owner, now, until) {
      return (await pool.query(sql.claim, [endpointId, owner, now.getTime(), until.getTime()])).rowCount === 1;
    },
    async release(endpointId, owner) {
      await pool.query(sql.release, [endpointId, owner]);
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}
