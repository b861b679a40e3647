/**
 * The write transaction of the SQLite event store, shared by the writer thread
 * (`sqliteWriterThread.ts`) and the in-thread writer used for ':memory:'.
 *
 * A batch is what the main thread's group commit (`sqliteWriter.ts`) gathered while the previous
 * batch was committing: append jobs and checkpoint saves. It is one write transaction (one fsync);
 * every job runs inside its own SAVEPOINT, so a job that fails rolls back alone. A job is the
 * requests of one `append`/`appendMany` call: they commit together or not at all.
 *
 * Everything here crosses a thread boundary, so it is plain structured-clone data: event data and
 * metadata are JSON text already (serialised on the main thread, where `toJSON` and friends behave
 * exactly as they always did), and errors travel as `WireError` and are re-created by `fromWire`.
 */
import type { DatabaseSync } from 'node:sqlite';
import { inSavepoint } from '@parcel-logistics/sqlite';
import {
  checkExpected,
  refuseRepeatedIds,
  retriedResult,
  serializeData,
  type StoredRow,
} from '@parcel-logistics/eventstore/adapter';
import { DuplicateEventIdError } from '@parcel-logistics/eventstore';
import { WrongExpectedRevisionError } from '@parcel-logistics/eventstore';
import type { AppendRequest, AppendResult, ExpectedRevision } from '@parcel-logistics/eventstore';

export interface SerializedEvent {
  id: string;
  type: string;
  /** `serializeData(event.data)`. */
  data: string;
  /** `JSON.stringify(event.metadata ?? {})`. */
  metadata: string;
}

export interface SerializedRequest {
  streamName: string;
  expectedRevision: ExpectedRevision;
  events: SerializedEvent[];
}

export interface Batch {
  /** ISO time stamped on every event of the batch. */
  recordedAt: string;
  /** One entry per append call: its requests, all or none. */
  jobs: SerializedRequest[][];
  /** Latest position per subscription id. */
  checkpoints: [subscriptionId: string, position: number][];
}

export type Outcome<E> = { ok: true; results: AppendResult[] } | { ok: false; error: E };

/**
 * `committed: false`: BEGIN or COMMIT failed (busy, I/O, disk full) and nothing of the batch is durable.
 * `logBefore`: the log's last position when the batch began (a batch with appends): under the
 * write lock, what the batch appended is the whole log after it.
 */
export type BatchOutcome<E = unknown> =
  { committed: true; outcomes: Outcome<E>[]; checkpointError?: E; logBefore?: number } | { committed: false; error: E };

/** Throws what `JSON.stringify` throws (a BigInt, a cycle): the caller rejects that request alone. */
export const serializeRequest = (request: AppendRequest): SerializedRequest => ({
  streamName: request.streamName,
  expectedRevision: request.expectedRevision,
  events: request.events.map((event) => ({
    id: event.id,
    type: event.type,
    data: serializeData(event.data),
    metadata: JSON.stringify(event.metadata ?? {}),
  })),
});

export interface BatchCommitter {
  commit(batch: Batch): BatchOutcome;
}

/**
 * `durability` applies to batches with appends. A batch of checkpoints alone commits with
 * `synchronous=NORMAL`: in WAL mode that survives a process crash; a power loss or kernel crash
 * may move a checkpoint back, which only re-delivers events to (idempotent) handlers. The next
 * FULL commit syncs those frames as well.
 */
export function createBatchCommitter(db: DatabaseSync, durability: 'full' | 'normal'): BatchCommitter {
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
  const logHead = db.prepare('SELECT COALESCE(MAX(global_position), 0) AS head FROM events');
  const saveCheckpoint = db.prepare(
    `INSERT INTO checkpoints (subscription_id, position) VALUES (?, ?)
     ON CONFLICT (subscription_id) DO UPDATE SET position = excluded.position`,
  );
  let synchronous: 'FULL' | 'NORMAL' | undefined;

  function appendOne(request: SerializedRequest, recordedAt: string): AppendResult {
    const { streamName, events } = request;
    const ids = refuseRepeatedIds(request);
    const stored = ids.length > 0 ? (findIds.all(JSON.stringify(ids)) as unknown as StoredRow[]) : [];
    if (stored.length > 0) {
      // The shared idempotency rule compares `serializeData(data)`; JSON text parses back to a
      // value that serialises to the same text. Only retries and id clashes take this path.
      const parsed = {
        ...request,
        events: events.map((e) => ({ id: e.id, type: e.type, data: JSON.parse(e.data) as unknown })),
      };
      return retriedResult(parsed, stored);
    }

    const last = head.get(streamName) as { revision: number; global_position: number } | undefined;
    const actual = last?.revision ?? -1;
    checkExpected(request, actual);
    let lastGlobalPosition = last?.global_position ?? 0;
    events.forEach((event, i) => {
      const run = insert.run(streamName, actual + 1 + i, event.id, event.type, event.data, event.metadata, recordedAt);
      lastGlobalPosition = Number(run.lastInsertRowid);
    });
    return { streamName, nextExpectedRevision: actual + events.length, lastGlobalPosition };
  }

  const inRequestSavepoint = <T>(work: () => T): T => inSavepoint(db, 'request', work);

  return {
    commit({ recordedAt, jobs, checkpoints }) {
      const wanted = jobs.length > 0 && durability === 'full' ? 'FULL' : 'NORMAL';
      const outcomes: Outcome<unknown>[] = [];
      let checkpointError: unknown;
      let logBefore: number | undefined;
      try {
        if (synchronous !== wanted) {
          db.exec(`PRAGMA synchronous = ${wanted}`);
          synchronous = wanted;
        }
        db.exec('BEGIN IMMEDIATE');
        if (jobs.length > 0) logBefore = (logHead.get() as { head: number }).head;
        for (const requests of jobs) {
          try {
            outcomes.push({
              ok: true,
              results: inRequestSavepoint(() => requests.map((r) => appendOne(r, recordedAt))),
            });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
        if (checkpoints.length > 0) {
          try {
            inRequestSavepoint(() => checkpoints.forEach(([id, position]) => saveCheckpoint.run(id, position)));
          } catch (error) {
            checkpointError = error ?? new Error('checkpoint save failed');
          }
        }
        db.exec('COMMIT');
      } catch (error) {
        if (db.isOpen && db.isTransaction) db.exec('ROLLBACK');
        return { committed: false, error };
      }
      return {
        committed: true,
        outcomes,
        ...(checkpointError === undefined ? {} : { checkpointError }),
        ...(logBefore === undefined ? {} : { logBefore }),
      };
    },
  };
}

/** An error as it crosses the thread boundary; the port's own errors keep their class and fields. */
export type WireError =
  | { kind: 'wrongExpectedRevision'; streamName: string; expected: ExpectedRevision; actual: number }
  | { kind: 'duplicateEventId'; streamName: string; eventId: string }
  | {
      kind: 'error';
      name: string;
      message: string;
      stack: string | undefined;
      fields: Record<string, string | number>;
    };

/** Fields of `node:sqlite` errors (and system errors) worth keeping. */
const errorFields = ['code', 'errcode', 'errstr', 'errno', 'syscall'];

function toWire(error: unknown): WireError {
  if (error instanceof WrongExpectedRevisionError) {
    return {
      kind: 'wrongExpectedRevision',
      streamName: error.streamName,
      expected: error.expected,
      actual: error.actual,
    };
  }
  if (error instanceof DuplicateEventIdError) {
    return { kind: 'duplicateEventId', streamName: error.streamName, eventId: error.eventId };
  }
  if (!(error instanceof Error))
    return { kind: 'error', name: 'Error', message: String(error), stack: undefined, fields: {} };
  const fields: Record<string, string | number> = {};
  for (const key of errorFields) {
    const value: unknown = (error as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return { kind: 'error', name: error.name, message: error.message, stack: error.stack, fields };
}

function fromWire(wire: WireError): Error {
  if (wire.kind === 'wrongExpectedRevision')
    return new WrongExpectedRevisionError(wire.streamName, wire.expected, wire.actual);
  if (wire.kind === 'duplicateEventId') return new DuplicateEventIdError(wire.streamName, wire.eventId);
  const error = Object.assign(new Error(wire.message), wire.fields);
  error.name = wire.name;
  // The writer thread's stack says where it failed; this thread's would only show the message handler.
  if (wire.stack !== undefined) error.stack = `${wire.stack}\n    at <sqlite writer thread>`;
  return error;
}

/** The same outcome with its errors converted by `convert`. */
function mapErrors<A, B>(outcome: BatchOutcome<A>, convert: (error: A) => B): BatchOutcome<B> {
  if (!outcome.committed) return { committed: false, error: convert(outcome.error) };
  const { outcomes, checkpointError, ...rest } = outcome;
  return {
    ...rest,
    outcomes: outcomes.map((o): Outcome<B> => (o.ok ? o : { ok: false, error: convert(o.error) })),
    ...(checkpointError === undefined ? {} : { checkpointError: convert(checkpointError) }),
  };
}

export const batchOutcomeToWire = (outcome: BatchOutcome): BatchOutcome<WireError> => mapErrors(outcome, toWire);

export const batchOutcomeFromWire = (outcome: BatchOutcome<WireError>): BatchOutcome<Error> =>
  mapErrors(outcome, fromWire);
