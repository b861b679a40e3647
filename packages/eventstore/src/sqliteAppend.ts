/**
 * Group commit for the SQLite event store: append requests queued during one turn of the event
 * loop share one write transaction (one fsync), each inside its own SAVEPOINT so that a request
 * that fails rolls back alone. Callers are settled only after COMMIT.
 */
import type { DatabaseSync } from 'node:sqlite';
import { DuplicateEventIdError } from './errors.ts';
import { WrongExpectedRevisionError } from './port.ts';
import type { AppendRequest, AppendResult, ExpectedRevision } from './port.ts';

interface Job {
  requests: AppendRequest[];
  resolve: (results: AppendResult[]) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; results: AppendResult[] } | { ok: false; error: unknown };

interface StoredRow {
  event_id: string;
  stream_name: string;
  revision: number;
  type: string;
  data: string;
  global_position: number;
}

export interface GroupCommitWriter {
  submit(requests: AppendRequest[]): Promise<AppendResult[]>;
  /** Commits whatever is queued now (used by close). */
  flush(): void;
}

export const serializeData = (data: unknown): string => JSON.stringify(data ?? null);

export function createGroupCommitWriter(
  db: DatabaseSync,
  options: { now: () => Date; onCommit: () => void },
): GroupCommitWriter {
  const head = db.prepare(
    'SELECT revision, global_position FROM events WHERE stream_name = ? ORDER BY revision DESC LIMIT 1',
  );
  const findIds = db.prepare(
    `SELECT event_id, stream_name, revision, type, data, global_position FROM events
     WHERE event_id IN (SELECT value FROM json_each(?))`,
  );
  const insert = db.prepare(
    `INSERT INTO events (stream_name, revision, event_id, type, data, metadata, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );

  let queue: Job[] = [];
  let scheduled = false;

  function appendOne(request: AppendRequest, recordedAt: string): AppendResult {
    const { streamName, expectedRevision, events } = request;
    const ids = events.map((e) => e.id);
    if (new Set(ids).size !== ids.length) {
      throw new DuplicateEventIdError(streamName, ids.find((id, i) => ids.indexOf(id) !== i) ?? '');
    }
    const stored = ids.length > 0 ? (findIds.all(JSON.stringify(ids)) as unknown as StoredRow[]) : [];
    if (stored.length > 0) return retriedResult(request, stored);

    const last = head.get(streamName) as { revision: number; global_position: number } | undefined;
    const actual = last?.revision ?? -1;
    if (!satisfies(expectedRevision, actual)) {
      throw new WrongExpectedRevisionError(streamName, expectedRevision, actual);
    }
    let lastGlobalPosition = last?.global_position ?? 0;
    events.forEach((event, i) => {
      const run = insert.run(
        streamName,
        actual + 1 + i,
        event.id,
        event.type,
        serializeData(event.data),
        JSON.stringify(event.metadata ?? {}),
        recordedAt,
      );
      lastGlobalPosition = Number(run.lastInsertRowid);
    });
    return { streamName, nextExpectedRevision: actual + events.length, lastGlobalPosition };
  }

  function flush(): void {
    scheduled = false;
    const jobs = queue;
    queue = [];
    if (jobs.length === 0) return;
    const recordedAt = options.now().toISOString();
    const outcomes: Outcome[] = [];
    try {
      db.exec('BEGIN IMMEDIATE');
      for (const job of jobs) {
        db.exec('SAVEPOINT request');
        try {
          outcomes.push({ ok: true, results: job.requests.map((r) => appendOne(r, recordedAt)) });
          db.exec('RELEASE request');
        } catch (error) {
          db.exec('ROLLBACK TO request');
          db.exec('RELEASE request');
          outcomes.push({ ok: false, error });
        }
      }
      db.exec('COMMIT');
    } catch (error) {
      // BEGIN or COMMIT failed (busy, I/O, disk full): nothing of this group is durable.
      if (db.isOpen && db.isTransaction) db.exec('ROLLBACK');
      for (const job of jobs) job.reject(error);
      return;
    }
    jobs.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.results);
      else job.reject(outcome.error);
    });
    if (outcomes.some((o) => o.ok)) options.onCommit();
  }

  return {
    submit(requests) {
      return new Promise((resolve, reject) => {
        queue.push({ requests, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    flush,
  };
}

function satisfies(expected: ExpectedRevision, actual: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === -1;
  if (expected === 'stream_exists') return actual >= 0;
  return actual === expected;
}

/**
 * Idempotency rule: a request whose events are all stored already, on the same stream, in the
 * same order at consecutive revisions, with the same types and data, where the expected revision
 * would have admitted them, is an exact retry and succeeds with the original result. Metadata is
 * not compared (a retry may carry a new trace context). Any other reuse of a stored id is refused.
 */
function retriedResult(request: AppendRequest, stored: StoredRow[]): AppendResult {
  const { streamName, expectedRevision, events } = request;
  const byId = new Map(stored.map((row) => [row.event_id, row]));
  const first = byId.get(events[0]!.id);
  const exact =
    first !== undefined &&
    stored.length === events.length &&
    satisfies(expectedRevision, first.revision - 1) &&
    events.every((event, i) => {
      const row = byId.get(event.id);
      return (
        row !== undefined &&
        row.stream_name === streamName &&
        row.revision === first.revision + i &&
        row.type === event.type &&
        row.data === serializeData(event.data)
      );
    });
  if (!exact) throw new DuplicateEventIdError(streamName, stored[0]!.event_id);
  const last = byId.get(events[events.length - 1]!.id)!;
  return { streamName, nextExpectedRevision: last.revision, lastGlobalPosition: last.global_position };
}
