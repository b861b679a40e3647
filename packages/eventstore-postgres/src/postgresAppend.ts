/**
 * Appends to the PostgreSQL event store.
 *
 * Global order: positions must be handed out in commit order, or a subscription that has read
 * "everything after X" would never see an event committed later with a position below X (the
 * classic bigserial gap: transaction A draws 7, B draws 8, B commits, a reader moves past 8, A
 * commits 7). So the rows are written by `append_checked_rows` (postgresSchema.ts), which first
 * takes one transaction-scoped advisory lock (`pg_advisory_xact_lock`, per schema) and only then,
 * in a later statement (a fresh snapshot), reads MAX(global_position) and inserts above it. The
 * lock is released only after the commit is visible, so the next appender sees it and draws higher
 * positions: appends are serialised, positions are gap-free and committed in order, and a reader
 * can never see position N+1 without N. The lock is held for one server-side call, never across a
 * round trip to this process.
 *
 * Group commit: each store object gathers the appends asked for in the same turn of the event loop,
 * or while its previous group is being committed, and commits up to `maxGroup` of them together, in
 * at most two round trips whatever the group's size: one lookup (the stored rows of every id, the
 * head of every stream and the log's head), then one `append_checked_rows` call with every accepted
 * event (a group whose every request says where its stream ends skips the lookup, see
 * `namesItsEnd`). The rules (expected revision, idempotent retry, repeated ids) are applied here,
 * in order, to the lookup plus what the group's earlier members add, so a refused member is simply
 * left out. The lookup takes no lock: a writer that appends to one of the group's streams or ids in
 * between makes `append_checked_rows` fail on UNIQUE (stream_name, revision) or UNIQUE (event_id),
 * and the group is looked up and planned again. Positions are planned above the looked-up head and
 * moved up to where `append_checked_rows` actually put them. Every caller learns its outcome only
 * after the commit; any other failure fails the whole group.
 */
import { setImmediate as endOfTurn } from 'node:timers/promises';
import type { Pool } from 'pg';
import {
  checkExpected,
  refuseRepeatedIds,
  retriedResult,
  serializeData,
  type StoredRow,
} from '@parcel-logistics/eventstore/adapter';
import { observeGroup, type GroupObserver } from '@parcel-logistics/eventstore/adapter';
import type { AppendRequest, AppendResult } from '@parcel-logistics/eventstore';
import type { CommitNotices } from './postgresNotices.ts';
import { GAP_ERRCODE, type PgNames } from './postgresSchema.ts';

interface LookupRow {
  event_id: string | null;
  stream_name: string | null;
  revision: string | null;
  type: string | null;
  data: string | null;
  global_position: string | null;
  kind: 'id' | 'head' | 'log';
}

const UNIQUE_VIOLATION = '23505';
/** Lookups and writes of one group before it fails: each retry means another group committed meanwhile. */
const MAX_ATTEMPTS = 10;

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

/** A state with nothing stored: what a lookup starts from, and what a group of new streams only is planned on. */
const nothingStored = (): GroupState => ({ stored: new Map(), heads: new Map(), logHead: 0 });

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
      if (events.length === 0)
        return { streamName, nextExpectedRevision: actual, lastGlobalPosition: head?.globalPosition ?? 0 };
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

/**
 * The stored rows of a group's ids, the last event of each of its streams, and the log's head, in
 * one query. Each id and each stream is looked up in a LATERAL subquery on its unique index, kept
 * apart by its LIMIT (without one the planner turns it into a join, a hash join over the whole
 * table when that is small): the plan stays index lookups whatever the table's size and statistics. (A named statement is
 * planned once per connection and that plan is kept; with `event_id = ANY($1)` the plan made
 * while the table was small, a sequential scan, stayed while the table grew: 4 ms per lookup at
 * 4 000 events, growing with the log.)
 */
export const lookupSql = (n: PgNames): string => `
    SELECT 'id' AS kind, e.event_id, e.stream_name, e.revision::text, e.type, e.data::text AS data, e.global_position::text
      FROM unnest($1::text[]) AS i(id)
      CROSS JOIN LATERAL (SELECT event_id, stream_name, revision, type, data, global_position FROM ${n.events}
        WHERE event_id = i.id LIMIT 1) AS e
    UNION ALL
    SELECT 'head', NULL, s.name, h.revision::text, NULL, NULL, h.global_position::text
      FROM unnest($2::text[]) AS s(name)
      CROSS JOIN LATERAL (SELECT revision, global_position FROM ${n.events}
        WHERE stream_name = s.name ORDER BY revision DESC LIMIT 1) AS h
    UNION ALL
    SELECT 'log', NULL, NULL, NULL, NULL, NULL, COALESCE(MAX(global_position), 0)::text FROM ${n.events}`;

/**
 * A request that says where its stream ends (no stream yet, or an exact revision) and brings events
 * need not be looked up before it is written: its rows are planned after that end, and were the
 * stream elsewhere the write fails whole, on UNIQUE (stream_name, revision) when the stream is
 * longer, with `GAP_ERRCODE` when it is shorter (`append_checked_rows` stores no revision whose
 * predecessor is missing), and on UNIQUE (event_id) for a retry of ids already stored. The group is
 * then looked up and planned as any other. A group of such requests only is written at once, in one
 * round trip instead of two: create-order's claim and parcel, and the writes decided on a stream
 * just read (carrier registration, labels, carrier events, cancellation). The positions come from
 * `append_checked_rows` (planned above 0, moved up to where it put them).
 */
const namesItsEnd = (request: AppendRequest): boolean =>
  (request.expectedRevision === 'no_stream' || typeof request.expectedRevision === 'number') &&
  request.events.length > 0;

/** What a group that skips the lookup is planned on: each stream ends where its first request says. */
function namedEnds(group: readonly { requests: AppendRequest[] }[]): GroupState {
  const state = nothingStored();
  const seen = new Set<string>();
  for (const { streamName, expectedRevision } of group.flatMap((p) => p.requests)) {
    if (seen.has(streamName)) continue;
    seen.add(streamName);
    if (typeof expectedRevision === 'number')
      state.heads.set(streamName, { revision: expectedRevision, globalPosition: 0 });
  }
  return state;
}

/**
 * `notices` says whether a commit notifies the subscriptions in its own transaction
 * (postgresNotices.ts). `onGroup` is told how many calls each group settled without failing whole
 * carried (metrics).
 */
export function createPgAppend(
  pool: Pool,
  n: PgNames,
  notices: CommitNotices,
  maxGroup = 256,
  onGroup?: GroupObserver,
): PgAppend {
  const lookupText = lookupSql(n);
  const appendSql = `SELECT ${n.appendRows}($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::boolean)::text AS head`;

  interface Pending {
    requests: AppendRequest[];
    done: PromiseWithResolvers<{ results: AppendResult[]; wrote: boolean }>;
  }
  let queue: Pending[] = [];
  let running = false;

  async function lookup(group: Pending[]): Promise<GroupState> {
    const requests = group.flatMap((p) => p.requests);
    const ids = requests.flatMap((r) => r.events.map((e) => e.id));
    const streams = [...new Set(requests.map((r) => r.streamName))];
    const { rows } = await pool.query<LookupRow>({
      name: `${n.schema}-lookup`,
      text: lookupText,
      values: [ids, streams],
    });
    const state = nothingStored();
    for (const row of rows) {
      if (row.kind === 'log') state.logHead = Number(row.global_position);
      else if (row.kind === 'head')
        state.heads.set(row.stream_name!, {
          revision: Number(row.revision),
          globalPosition: Number(row.global_position),
        });
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

  /** Looks up, plans and writes the group until no concurrent writer got in between (bounded). */
  async function commit(group: Pending[]): Promise<Outcome[]> {
    for (let attempt = 1; ; attempt += 1) {
      // Every stream's end named by its requests: the first write goes without the lookup.
      const blind = attempt === 1 && group.every(({ requests }) => requests.every(namesItsEnd));
      const state = blind ? namedEnds(group) : await lookup(group);
      const plannedHead = state.logHead;
      const planned = group.map(({ requests }) => plan(state, requests));
      const rows = planned.flatMap((p) => p.rows);
      if (rows.length === 0) return planned.map((p) => p.outcome);
      let head: number;
      const notify = notices.inline();
      try {
        const values = [
          rows.map((r) => r.stream_name),
          rows.map((r) => r.revision),
          rows.map((r) => r.event_id),
          rows.map((r) => r.type),
          rows.map((r) => r.data),
          rows.map((r) => r.metadata),
          notify,
        ];
        const result = await pool.query<{ head: string }>({ name: `${n.schema}-append`, text: appendSql, values });
        head = Number(result.rows[0]!.head);
        notices.committed(notify);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if ((code === UNIQUE_VIOLATION || code === GAP_ERRCODE) && attempt < MAX_ATTEMPTS) continue;
        throw error;
      }
      // Planned positions are above the looked-up head; stored ones (retries, heads) are not.
      const shift = head - plannedHead;
      const moved = (position: number) => (position > plannedHead ? position + shift : position);
      return planned.map(({ outcome }) =>
        outcome.ok
          ? {
              ...outcome,
              results: outcome.results.map((r) => ({ ...r, lastGlobalPosition: moved(r.lastGlobalPosition) })),
            }
          : outcome,
      );
    }
  }

  /** Settles each member's promise once its group is committed (or failed). */
  async function commitGroup(group: Pending[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await commit(group);
    } catch (error) {
      for (const { done } of group) done.reject(error);
      return;
    }
    group.forEach(({ done }, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) done.resolve({ results: outcome.results, wrote: outcome.wrote });
      else done.reject(outcome.error);
    });
    observeGroup(onGroup, group.length);
  }

  async function drain(): Promise<void> {
    running = true;
    try {
      // The appends asked for in this turn of the event loop join the first group: the commands
      // of one fetched batch, handled side by side, commit together instead of one, then the rest.
      await endOfTurn();
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
