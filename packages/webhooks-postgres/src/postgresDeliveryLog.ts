/**
 * The delivery log half of the PostgreSQL delivery port: settled messages with every attempt,
 * redelivery, replay requests and retention. Times are Unix milliseconds (bigint, read as text).
 */
import type pg from 'pg';
import type { WebhookDeliveries } from '@parcel-logistics/webhooks';
import { attemptColumns, attemptOf, messageOf, replayColumns, replayOf } from '@parcel-logistics/webhooks/adapter';
import type { AttemptRow, MessageRow, ReplayRow } from '@parcel-logistics/webhooks/adapter';
import { inTransaction } from '@parcel-logistics/postgres';
import type { WebhookTables } from './postgresSchema.ts';

// Columns read as text: their aliases shadow the columns in ORDER BY, so every ORDER BY names the
// table's (`m.`, `a.`, `r.`) to sort by the numbers, not by their text ('10' before '9').
export const MESSAGE_COLUMNS = `endpoint_id, event_id, position::text, body, attempts, next_attempt_at::text, failing_since::text, state,
  queued_at::text, settled_at::text`;
const ATTEMPT_COLUMNS = 'seq::text, endpoint_id, event_id, attempt, at::text, duration_ms, status, answer, reason';
const REPLAY_COLUMNS =
  'id, endpoint_id, since::text, requested_at::text, status, position::text, scanned, queued, finished_at::text';

type DeliveryLog = Pick<
  WebhookDeliveries,
  | 'recordAttempt'
  | 'messages'
  | 'attempts'
  | 'redeliver'
  | 'requestReplay'
  | 'getReplay'
  | 'openReplays'
  | 'updateReplay'
  | 'prune'
>;

export function deliveryLog(pool: pg.Pool, t: WebhookTables): DeliveryLog {
  const newest = 'ORDER BY m.position DESC, m.event_id DESC LIMIT';
  const sql = {
    recordAttempt: `INSERT INTO ${t.attempts} (endpoint_id, event_id, attempt, at, duration_ms, status, answer, reason) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    newest: `SELECT ${MESSAGE_COLUMNS} FROM ${t.deliveries} AS m WHERE endpoint_id = $1 ${newest} $2`,
    newestBefore: `SELECT ${MESSAGE_COLUMNS} FROM ${t.deliveries} AS m WHERE endpoint_id = $1 AND (position, event_id) < ($2, $3) ${newest} $4`,
    attempts: `SELECT ${ATTEMPT_COLUMNS} FROM ${t.attempts} AS a WHERE endpoint_id = $1 AND seq < $2 AND ($3::text IS NULL OR event_id = $3)
      ORDER BY a.seq DESC LIMIT $4`,
    stateOf: `SELECT state FROM ${t.deliveries} WHERE endpoint_id = $1 AND event_id = $2 FOR UPDATE`,
    redeliver: `UPDATE ${t.deliveries} SET attempts = 0, next_attempt_at = $3, failing_since = NULL, state = 'pending', queued_at = $3, settled_at = NULL
      WHERE endpoint_id = $1 AND event_id = $2`,
    // The partial unique index on open replays makes the check and the write one.
    requestReplay: `INSERT INTO ${t.replays} (id, endpoint_id, since, requested_at, status, position, scanned, queued, finished_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
    getReplay: `SELECT ${REPLAY_COLUMNS} FROM ${t.replays} WHERE endpoint_id = $1 AND id = $2`,
    openReplays: `SELECT ${REPLAY_COLUMNS} FROM ${t.replays} AS r WHERE status <> 'done' ORDER BY r.requested_at, r.id`,
    updateReplay: `UPDATE ${t.replays} SET status = $2, position = $3, scanned = $4, queued = $5, finished_at = $6 WHERE id = $1`,
    pruneMessages: `DELETE FROM ${t.deliveries} WHERE state <> 'pending' AND settled_at < $1`,
    pruneAttempts: `DELETE FROM ${t.attempts} WHERE at < $1`,
    pruneReplays: `DELETE FROM ${t.replays} WHERE status = 'done' AND finished_at < $1`,
  };

  return {
    async recordAttempt(a) {
      await pool.query(sql.recordAttempt, [...attemptColumns(a)]);
    },
    async messages(endpointId, { limit, before }) {
      const { rows } = before
        ? await pool.query<MessageRow>(sql.newestBefore, [endpointId, before.position, before.eventId, limit])
        : await pool.query<MessageRow>(sql.newest, [endpointId, limit]);
      return rows.map(messageOf);
    },
    async attempts(endpointId, { limit, before, eventId }) {
      const { rows } = await pool.query<AttemptRow>(sql.attempts, [
        endpointId,
        before ?? Number.MAX_SAFE_INTEGER,
        eventId ?? null,
        limit,
      ]);
      return rows.map(attemptOf);
    },
    redeliver: (endpointId, eventId, now) =>
      inTransaction(pool, async (client) => {
        const row = (await client.query<{ state: string }>(sql.stateOf, [endpointId, eventId])).rows[0];
        if (!row) return 'unknown';
        if (row.state === 'pending') return 'pending';
        await client.query(sql.redeliver, [endpointId, eventId, now.getTime()]);
        return 'queued';
      }),
    async requestReplay(r) {
      return (await pool.query(sql.requestReplay, [...replayColumns(r)])).rowCount === 1 ? 'requested' : 'busy';
    },
    async getReplay(endpointId, id) {
      const row = (await pool.query<ReplayRow>(sql.getReplay, [endpointId, id])).rows[0];
      return row ? replayOf(row) : undefined;
    },
    async openReplays() {
      return (await pool.query<ReplayRow>(sql.openReplays)).rows.map(replayOf);
    },
    async updateReplay(r) {
      await pool.query(sql.updateReplay, [
        r.id,
        r.status,
        r.position,
        r.scanned,
        r.queued,
        r.finishedAt?.getTime() ?? null,
      ]);
    },
    prune: (before) =>
      inTransaction(pool, async (client) => {
        const t0 = [before.getTime()];
        return {
          messages: (await client.query(sql.pruneMessages, t0)).rowCount ?? 0,
          attempts: (await client.query(sql.pruneAttempts, t0)).rowCount ?? 0,
          replays: (await client.query(sql.pruneReplays, t0)).rowCount ?? 0,
        };
      }),
  };
}
