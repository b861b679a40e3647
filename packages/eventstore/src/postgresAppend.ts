/**
 * Appends to the PostgreSQL event store.
 *
 * Global order: positions must be handed out in commit order, or a subscription that has read
 * "everything after X" would never see an event committed later with a position below X (the
 * classic bigserial gap: transaction A draws 7, B draws 8, B commits, a reader moves past 8, A
 * commits 7). So every append transaction first takes one transaction-scoped advisory lock
 * (`pg_advisory_xact_lock`, per schema) and only then, in a later statement (a fresh snapshot
 * under READ COMMITTED), reads MAX(global_position) and inserts above it. The lock is released
 * only after the commit is visible, so the next appender sees it and draws higher positions:
 * appends are serialised, positions are gap-free and committed in order, and a reader can never
 * see position N+1 without N. The price is one append transaction at a time per schema (see
 * bench/postgresAppendThroughput.ts); UNIQUE (stream_name, revision) stays as the final guard.
 */
import type { Pool, PoolClient } from 'pg';
import { checkExpected, refuseRepeatedIds, retriedResult, serializeData, type StoredRow } from './appendRules.ts';
import type { AppendRequest, AppendResult } from './port.ts';
import type { PgNames } from './postgresSchema.ts';

interface LookupRow {
  event_id: string;
  stream_name: string;
  revision: string;
  type: string;
  data: string | null;
  global_position: string;
  head: boolean;
}

export type PgAppend = (requests: AppendRequest[]) => Promise<{ results: AppendResult[]; wrote: boolean }>;

export function createPgAppend(pool: Pool, n: PgNames): PgAppend {
  // The stored rows of the request's ids, plus the stream's last event (flagged `head`), in one round trip.
  const lookupSql = `
    SELECT event_id, stream_name, revision, type, data::text AS data, global_position, false AS head
      FROM ${n.events} WHERE event_id = ANY($2::text[])
    UNION ALL
    (SELECT event_id, stream_name, revision, type, NULL, global_position, true AS head
      FROM ${n.events} WHERE stream_name = $1 ORDER BY revision DESC LIMIT 1)`;
  const insertSql = `
    WITH inserted AS (
      INSERT INTO ${n.events} (global_position, stream_name, revision, event_id, type, data, metadata)
      SELECT log.head + e.ord, $1, $2::bigint + e.ord, e.id, e.type, e.data::json, e.metadata::json
        FROM (SELECT COALESCE(MAX(global_position), 0) AS head FROM ${n.events}) AS log,
             unnest($3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS e(id, type, data, metadata, ord)
      RETURNING global_position)
    SELECT MAX(global_position) AS last FROM inserted`;

  /** `inserted` is false for an exact retry or a request without events. */
  async function appendOne(client: PoolClient, request: AppendRequest): Promise<{ result: AppendResult; inserted: boolean }> {
    const { streamName, events } = request;
    const ids = refuseRepeatedIds(request);
    const { rows } = await client.query<LookupRow>({ name: `${n.schema}-lookup`, text: lookupSql, values: [streamName, ids] });
    const stored = rows.filter((row) => !row.head).map(toStoredRow);
    if (stored.length > 0) return { result: retriedResult(request, stored), inserted: false };

    const head = rows.find((row) => row.head);
    const actual = head ? Number(head.revision) : -1;
    checkExpected(request, actual);
    if (events.length === 0) {
      const result = { streamName, nextExpectedRevision: actual, lastGlobalPosition: head ? Number(head.global_position) : 0 };
      return { result, inserted: false };
    }
    const values = [
      streamName,
      actual,
      ids,
      events.map((e) => e.type),
      events.map((e) => serializeData(e.data)),
      events.map((e) => JSON.stringify(e.metadata ?? {})),
    ];
    const { rows: [last] } = await client.query<{ last: string }>({ name: `${n.schema}-insert`, text: insertSql, values });
    const result = { streamName, nextExpectedRevision: actual + events.length, lastGlobalPosition: Number(last!.last) };
    return { result, inserted: true };
  }

  return async (requests) => {
    const client = await pool.connect();
    try {
      await client.query(`BEGIN ISOLATION LEVEL READ COMMITTED; SELECT pg_advisory_xact_lock(${n.appendLock})`);
      const results: AppendResult[] = [];
      let wrote = false;
      for (const request of requests) {
        const { result, inserted } = await appendOne(client, request);
        results.push(result);
        wrote ||= inserted;
      }
      // NOTIFY is delivered at commit, and only if the transaction commits.
      await client.query(wrote ? `NOTIFY ${n.channel}; COMMIT` : 'COMMIT');
      client.release();
      return { results, wrote };
    } catch (error) {
      try {
        await client.query('ROLLBACK');
        client.release();
      } catch {
        client.release(true);
      }
      throw error;
    }
  };
}

const toStoredRow = (row: LookupRow): StoredRow => ({
  event_id: row.event_id,
  stream_name: row.stream_name,
  revision: Number(row.revision),
  type: row.type,
  data: row.data ?? '',
  global_position: Number(row.global_position),
});
