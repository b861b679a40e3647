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
 * see position N+1 without N.
 *
 * Group commit: one append transaction at a time per schema would cap a process at one WAL flush
 * per append, so each store object gathers the appends that arrive while its transaction runs and
 * commits up to `maxGroup` of them in the next one, in four round trips whatever the group's
 * size: lock, one lookup (the stored rows of every id and the head of every stream, and the log's
 * head), one INSERT of every accepted event, NOTIFY and COMMIT. The rules (expected revision,
 * idempotent retry, repeated ids) are applied here, in order, to the lookup plus what the group's
 * earlier members add, so a refused member is simply left out of the INSERT. Every caller learns
 * its outcome only after the commit; a failed statement or commit fails the whole group, and
 * UNIQUE (stream_name, revision) and UNIQUE (event_id) stay as the final guard.
 */
import type { Pool } from 'pg';
import { checkExpected, refuseRepeatedIds, retriedResult, serializeData, type StoredRow } from './appendRules.ts';
import type { AppendRequest, AppendResult } from './port.ts';
import type { PgNames } from './postgresSchema.ts';

interface LookupRow {
  event_id: string | null;
  stream_name: string | null;
  revision: string | null;
  type: string | null;
  data: string | null;
  global_position: string | null;
  kind: 'id' | 'head' | 'log';
}

export type PgAppend = (requests: AppendRequest[]) => Promise<{ results: AppendResult[]; wrote: boolean }>;

interface Head {
  revision: number;
  globalPosition: number;
}

interface Row extends StoredRow {
  metadata: string;
}

/** What the group's transaction knows: the lookup, plus the rows its earlier members will insert. */
interface GroupState {
  stored: Map<string, StoredRow>;
  heads: Map<string, Head>;
  logHead: number;
}

type Outcome = { ok: true; results: AppendResult[]; wrote: boolean } | { ok: false; error: unknown };

/**
 * One call's requests against the group's state so far: all accepted (their rows are returned and
 * the state moves on) or, when one breaks a rule, none (the state is left as it was).
 */
function plan(state: GroupState, requests: AppendRequest[]): { outcome: Outcome; rows: Row[] } {
  const stored = new Map<string, StoredRow>();
  const heads = new Map<string, Head>();
  const rows: Row[] = [];
  let logHead = state.logHead;
  const storedRow = (id: string) => stored.get(id) ?? state.stored.get(id);
  const headOf = (stream: string) => heads.get(stream) ?? state.heads.get(stream);
  try {
    const results = requests.map((request): AppendResult => {
      const { streamName, events } = request;
      const ids = refuseRepeatedIds(request);
      const found = ids.flatMap((id) => storedRow(id) ?? []);
      if (found.length > 0) return retriedResult(request, found);
      const head = headOf(streamName);
      const actual = head?.revision ?? -1;
      checkExpected(request, actual);
      if (events.length === 0) return { streamName, nextExpectedRevision: actual, lastGlobalPosition: head?.globalPosition ?? 0 };
      events.forEach((event, i) => {
        const row: Row = {
          event_id: event.id,
          stream_name: streamName,
          revision: actual + 1 + i,
          type: event.type,
          data: serializeData(event.data),
          metadata: JSON.stringify(event.metadata ?? {}),
          global_position: ++logHead,
        };
        rows.push(row);
        stored.set(row.event_id, row);
      });
      const last = rows[rows.length - 1]!;
      heads.set(streamName, { revision: last.revision, globalPosition: last.global_position });
      return { streamName, nextExpectedRevision: last.revision, lastGlobalPosition: last.global_position };
    });
    for (const [id, row] of stored) state.stored.set(id, row);
    for (const [stream, head] of heads) state.heads.set(stream, head);
    state.logHead = logHead;
    return { outcome: { ok: true, results, wrote: rows.length > 0 }, rows };
  } catch (error) {
    return { outcome: { ok: false, error }, rows: [] };
  }
}

export function createPgAppend(pool: Pool, n: PgNames, maxGroup = 256): PgAppend {
  // The stored rows of the group's ids, the last event of each of its streams, and the log's head.
  const lookupSql = `
    SELECT 'id' AS kind, event_id, stream_name, revision::text, type, data::text AS data, global_position::text
      FROM ${n.events} WHERE event_id = ANY($1::text[])
    UNION ALL
    SELECT 'head', NULL, s.name, h.revision::text, NULL, NULL, h.global_position::text
      FROM unnest($2::text[]) AS s(name)
      CROSS JOIN LATERAL (SELECT revision, global_position FROM ${n.events}
        WHERE stream_name = s.name ORDER BY revision DESC LIMIT 1) AS h
    UNION ALL
    SELECT 'log', NULL, NULL, NULL, NULL, NULL, COALESCE(MAX(global_position), 0)::text FROM ${n.events}`;
  const insertSql = `
    INSERT INTO ${n.events} (global_position, stream_name, revision, event_id, type, data, metadata)
    SELECT e.position, e.stream, e.revision, e.id, e.type, e.data::json, e.metadata::json
      FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[])
        AS e(position, stream, revision, id, type, data, metadata)`;

  interface Pending {
    requests: AppendRequest[];
    done: PromiseWithResolvers<{ results: AppendResult[]; wrote: boolean }>;
  }
  let queue: Pending[] = [];
  let running = false;

  async function lookup(query: (text: string, values: unknown[]) => Promise<{ rows: LookupRow[] }>, group: Pending[]): Promise<GroupState> {
    const requests = group.flatMap((p) => p.requests);
    const ids = requests.flatMap((r) => r.events.map((e) => e.id));
    const streams = [...new Set(requests.map((r) => r.streamName))];
    const { rows } = await query(lookupSql, [ids, streams]);
    const state: GroupState = { stored: new Map(), heads: new Map(), logHead: 0 };
    for (const row of rows) {
      if (row.kind === 'log') state.logHead = Number(row.global_position);
      else if (row.kind === 'head') state.heads.set(row.stream_name!, { revision: Number(row.revision), globalPosition: Number(row.global_position) });
      else {
        state.stored.set(row.event_id!, {
          event_id: row.event_id!,
          stream_name: row.stream_name!,
          revision: Number(row.revision),
          type: row.type!,
          data: row.data!,
          global_position: Number(row.global_position),
        });
      }
    }
    return state;
  }

  /** One transaction for the group; settles each member's promise once it ended. */
  async function commitGroup(group: Pending[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      const client = await pool.connect();
      try {
        await client.query(`BEGIN ISOLATION LEVEL READ COMMITTED; SELECT pg_advisory_xact_lock(${n.appendLock})`);
        const state = await lookup((text, values) => client.query<LookupRow>({ name: `${n.schema}-lookup`, text, values }), group);
        const planned = group.map(({ requests }) => plan(state, requests));
        const rows = planned.flatMap((p) => p.rows);
        if (rows.length > 0) {
          const values = [
            rows.map((r) => r.global_position),
            rows.map((r) => r.stream_name),
            rows.map((r) => r.revision),
            rows.map((r) => r.event_id),
            rows.map((r) => r.type),
            rows.map((r) => r.data),
            rows.map((r) => r.metadata),
          ];
          await client.query({ name: `${n.schema}-insert`, text: insertSql, values });
        }
        // NOTIFY is delivered at commit, and only if the transaction commits.
        await client.query(rows.length > 0 ? `NOTIFY ${n.channel}; COMMIT` : 'COMMIT');
        client.release();
        outcomes = planned.map((p) => p.outcome);
      } catch (error) {
        try {
          await client.query('ROLLBACK');
          client.release();
        } catch {
          client.release(true);
        }
        throw error;
      }
    } catch (error) {
      for (const { done } of group) done.reject(error);
      return;
    }
    group.forEach(({ done }, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) done.resolve({ results: outcome.results, wrote: outcome.wrote });
      else done.reject(outcome.error);
    });
  }

  async function drain(): Promise<void> {
    running = true;
    try {
      while (queue.length > 0) {
        const group = queue.slice(0, maxGroup);
        queue = queue.slice(group.length);
        await commitGroup(group);
      }
    } finally {
      running = false;
    }
  }

  return (requests) => {
    const done = Promise.withResolvers<{ results: AppendResult[]; wrote: boolean }>();
    queue.push({ requests, done });
    if (!running) void drain();
    return done.promise;
  };
}
