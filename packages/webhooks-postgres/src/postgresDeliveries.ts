/**
 * The delivery queue and the endpoint leases on PostgreSQL, shared by the webhook service's
 * instances. A lease row (owner, expiry) per endpoint is taken, renewed or refused in one
 * conditional upsert: the row lock serialises claimants, and the condition is judged on the row as
 * the last of them left it, so two instances never both drain one endpoint's queue.
 */
import type { PendingDelivery, WebhookDeliveries } from '@parcel/webhooks';
import { openPool } from './postgresSchema.ts';
import type { PostgresWebhooksOptions } from './postgresSchema.ts';

interface Row {
  endpoint_id: string;
  event_id: string;
  position: string;
  body: string;
  attempts: number;
  next_attempt_at: string;
  failing_since: string | null;
}

export async function createPostgresWebhookDeliveries(options: PostgresWebhooksOptions): Promise<WebhookDeliveries> {
  const { pool, tables: t } = await openPool(options, 'parcel-webhook-deliveries');
  // Ties of position (test events all sit behind the log) go in the order queued.
  const inOrder = 'ORDER BY position, queued';
  const sql = {
    enqueue: `INSERT INTO ${t.deliveries} (endpoint_id, event_id, position, body, next_attempt_at)
      SELECT e.endpoint_id, e.event_id, e.position, e.body, $5
        FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) WITH ORDINALITY AS e(endpoint_id, event_id, position, body, n)
        ORDER BY e.n
      ON CONFLICT DO NOTHING`,
    // The head of each endpoint's queue is the only row that may be due: later rows wait behind it.
    due: `SELECT endpoint_id FROM (SELECT DISTINCT ON (endpoint_id) endpoint_id, next_attempt_at FROM ${t.deliveries} ORDER BY endpoint_id, position, queued) AS heads
      WHERE next_attempt_at <= $1`,
    head: `SELECT endpoint_id, event_id, position::text, body, attempts, next_attempt_at::text, failing_since::text
      FROM ${t.deliveries} WHERE endpoint_id = $1 ${inOrder} LIMIT 1`,
    remove: `DELETE FROM ${t.deliveries} WHERE endpoint_id = $1 AND event_id = $2`,
    retry: `UPDATE ${t.deliveries} SET attempts = $3, next_attempt_at = $4, failing_since = $5 WHERE endpoint_id = $1 AND event_id = $2`,
    drop: `DELETE FROM ${t.deliveries} WHERE endpoint_id = $1`,
    claim: `INSERT INTO ${t.leases} AS l (endpoint_id, owner, expires_at) VALUES ($1, $2, $4)
      ON CONFLICT (endpoint_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
      WHERE l.owner = excluded.owner OR l.expires_at <= $3`,
    release: `DELETE FROM ${t.leases} WHERE endpoint_id = $1 AND owner = $2`,
  };

  return {
    async enqueue(deliveries, now) {
      if (deliveries.length === 0) return;
      const column = <K extends keyof (typeof deliveries)[number]>(k: K) => deliveries.map((d) => d[k]);
      await pool.query(sql.enqueue, [column('endpointId'), column('eventId'), column('position'), column('body'), now.getTime()]);
    },
    async dueEndpoints(now) {
      return (await pool.query<{ endpoint_id: string }>(sql.due, [now.getTime()])).rows.map((r) => r.endpoint_id);
    },
    async head(endpointId): Promise<PendingDelivery | undefined> {
      const row = (await pool.query<Row>(sql.head, [endpointId])).rows[0];
      if (!row) return undefined;
      return {
        endpointId: row.endpoint_id,
        eventId: row.event_id,
        position: Number(row.position),
        body: row.body,
        attempts: row.attempts,
        nextAttemptAt: new Date(Number(row.next_attempt_at)),
        failingSince: row.failing_since === null ? null : new Date(Number(row.failing_since)),
      };
    },
    async remove(endpointId, eventId) {
      await pool.query(sql.remove, [endpointId, eventId]);
    },
    async retryAt(endpointId, eventId, attempts, at, failingSince) {
      await pool.query(sql.retry, [endpointId, eventId, attempts, at.getTime(), failingSince.getTime()]);
    },
    async claim(endpointId, owner, now, until) {
      return (await pool.query(sql.claim, [endpointId, owner, now.getTime(), until.getTime()])).rowCount === 1;
    },
    async release(endpointId, owner) {
      await pool.query(sql.release, [endpointId, owner]);
    },
    async dropEndpoint(endpointId) {
      await pool.query(sql.drop, [endpointId]);
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}
