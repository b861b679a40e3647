/**
 * Group commit for the SQLite event store, on the main thread. Append requests (and checkpoint
 * saves) queue here; one batch at a time goes to the transport, which commits it as one write
 * transaction (`sqliteAppend.ts`). What arrives while a batch is committing waits and goes as the
 * next batch, so the number of commits (and fsyncs) adapts to the load. Callers are settled only
 * after COMMIT.
 *
 * Transports: the writer thread (`sqliteWriterThread.ts`, the default for files: COMMIT and its
 * fsync block that thread, not this event loop) or this thread (':memory:', which a worker cannot
 * share, or `writerThread: false`).
 */
import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { observeGroup, type GroupObserver } from '@parcel-logistics/eventstore/adapter';
import type { AppendRequest, AppendResult, RecordedEvent } from '@parcel-logistics/eventstore';
import {
  batchOutcomeFromWire,
  createBatchCommitter,
  serializeRequest,
  type Batch,
  type BatchOutcome,
  type Outcome,
  type SerializedRequest,
  type WireError,
} from './sqliteAppend.ts';
import type { WriterThreadData, WriterThreadMessage } from './sqliteWriterThread.ts';

/** Commits one batch at a time. A rejection means the outcome is unknown (the writer thread died). */
export interface BatchTransport {
  commit(batch: Batch): Promise<BatchOutcome>;
  close(): Promise<void>;
}

export function inThreadTransport(db: DatabaseSync, durability: 'full' | 'normal'): BatchTransport {
  const committer = createBatchCommitter(db, durability);
  return {
    commit: async (batch) => committer.commit(batch),
    close: async () => undefined,
  };
}

/**
 * A worker thread owning the writing connection. It is unreferenced while idle (an idle store does
 * not keep the process alive, as before) and referenced while a batch is out. A thread that dies
 * fails the batch it had (its outcome is unknown: callers retry with the same event ids) and is
 * replaced for the next batch.
 */
export function writerThreadTransport(data: WriterThreadData): BatchTransport {
  let worker: Worker | undefined;
  let pending: { resolve: (outcome: BatchOutcome) => void; reject: (error: unknown) => void } | undefined;
  let closed = false;

  const start = (): Worker => {
    // Under jest this module is CommonJS and SWC rewrites `import.meta.url` from `__filename`; the
    // thread itself is loaded by Node (type stripping), never by jest. It needs none of this
    // process's flags, and some break a worker (`node --input-type=module -e …`), so it gets none.
    // The writer holds only the batch in flight: a small heap of its own keeps the process's memory flat.
    const thread = new Worker(new URL('./sqliteWriterThread.ts', import.meta.url), {
      workerData: data,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
    });
    thread.unref();
    const fail = (cause: unknown): void => {
      if (worker !== thread) return;
      worker = undefined;
      const waiting = pending;
      pending = undefined;
      waiting?.reject(
        new Error('the sqlite writer thread stopped; the batch may or may not have committed', { cause }),
      );
    };
    thread.on('message', (outcome: BatchOutcome<WireError>) => {
      thread.unref();
      const waiting = pending;
      pending = undefined;
      waiting?.resolve(batchOutcomeFromWire(outcome));
    });
    thread.on('error', fail);
    thread.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    return thread;
  };
  worker = start();

  return {
    commit(batch) {
      return new Promise((resolve, reject) => {
        if (closed) return reject(new Error('event store is closed'));
        if (pending) return reject(new Error('the sqlite writer thread takes one batch at a time'));
        const thread = (worker ??= start());
        pending = { resolve, reject };
        thread.ref();
        try {
          thread.postMessage({ kind: 'batch', batch } satisfies WriterThreadMessage);
        } catch (error) {
          // Not cloneable: nothing was sent.
          pending = undefined;
          thread.unref();
          reject(error);
        }
      });
    },
    async close() {
      closed = true;
      const thread = worker;
      worker = undefined;
      if (!thread) return;
      thread.ref();
      const exited = new Promise((resolve) => thread.once('exit', resolve));
      thread.postMessage({ kind: 'close' } satisfies WriterThreadMessage);
      await exited;
    },
  };
}

export interface GroupCommitWriter {
  submit(requests: AppendRequest[]): Promise<AppendResult[]>;
  /** Rides along with the next batch; the latest position per subscription wins. */
  saveCheckpoint(subscriptionId: string, position: number): Promise<void>;
  /** Resolves once everything queued so far is committed (or failed). */
  drain(): Promise<void>;
  /** Drains, then stops the transport; later calls fail. Idempotent. */
  close(): Promise<void>;
}

interface Settle<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

interface Job extends Settle<AppendResult[]> {
  requests: SerializedRequest[];
}

/** What a committed batch appended to the log: the events after `after`, all of them, as a read of the log gives them. */
export interface Appended {
  after: number;
  /** Parsed from the JSON text the batch wrote, when called; none when they are not the whole log after `after`. */
  events(): RecordedEvent[];
}

/**
 * The events of a committed batch in log order, as `readAll` would give them. Exact retries (their
 * events were stored before the batch) add nothing. None unless they fill the log after
 * `logBefore` without a gap: positions the batch took but did not keep make a reader ask the store.
 */
function appendedEvents(
  logBefore: number,
  recordedAt: string,
  jobs: readonly Job[],
  outcomes: readonly Outcome<unknown>[],
): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  let next = logBefore + 1;
  for (const [j, job] of jobs.entries()) {
    const outcome = outcomes[j]!;
    if (!outcome.ok) continue;
    for (const [r, request] of job.requests.entries()) {
      const result = outcome.results[r]!;
      if (result.lastGlobalPosition <= logBefore) continue;
      const count = request.events.length;
      if (result.lastGlobalPosition - count + 1 !== next) return [];
      for (const [i, event] of request.events.entries())
        events.push({
          id: event.id,
          streamName: request.streamName,
          type: event.type,
          revision: result.nextExpectedRevision - count + 1 + i,
          globalPosition: next + i,
          data: JSON.parse(event.data) as unknown,
          metadata: JSON.parse(event.metadata) as Record<string, unknown>,
          recordedAt,
        });
      next += count;
    }
  }
  return events;
}

export function createGroupCommitWriter(
  transport: BatchTransport,
  options: {
    now: () => Date;
    /** After each batch that appended: what it appended (for the log reader of the store). */
    onCommit: (appended: Appended | undefined) => void;
    /** Told the number of append calls each committed batch carried (batches of checkpoint saves alone are not told). */
    onGroup?: GroupObserver;
  },
): GroupCommitWriter {
  let jobs: Job[] = [];
  let checkpoints = new Map<string, { position: number; waiters: Settle<void>[] }>();
  let scheduled = false;
  let inFlight: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  const queued = (): boolean => jobs.length > 0 || checkpoints.size > 0;

  // The next batch starts in the check phase, after the microtasks of settled callers have queued
  // their follow-up appends.
  const schedule = (): void => {
    if (scheduled || inFlight) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void flush();
    });
  };

  function flush(): Promise<void> {
    if (inFlight) return inFlight;
    if (!queued()) return Promise.resolve();
    const batchJobs = jobs;
    const saves = checkpoints;
    jobs = [];
    checkpoints = new Map();
    inFlight = commit(batchJobs, saves).finally(() => {
      inFlight = undefined;
      if (queued()) schedule();
    });
    return inFlight;
  }

  async function commit(batchJobs: Job[], saves: typeof checkpoints): Promise<void> {
    let outcome: BatchOutcome;
    const recordedAt = options.now().toISOString();
    try {
      const batch: Batch = {
        recordedAt,
        jobs: batchJobs.map((job) => job.requests),
        checkpoints: [...saves].map(([id, save]) => [id, save.position]),
      };
      outcome = await transport.commit(batch);
    } catch (error) {
      outcome = { committed: false, error };
    }
    const waiters = [...saves.values()].flatMap((save) => save.waiters);
    if (!outcome.committed) {
      for (const settle of [...batchJobs, ...waiters]) settle.reject(outcome.error);
      return;
    }
    const { outcomes, checkpointError } = outcome;
    batchJobs.forEach((job, i) => {
      const result = outcomes[i]!;
      if (result.ok) job.resolve(result.results);
      else job.reject(result.error);
    });
    for (const waiter of waiters) {
      if (checkpointError === undefined) waiter.resolve();
      else waiter.reject(checkpointError);
    }
    if (outcomes.some((o) => o.ok)) {
      const { logBefore } = outcome;
      options.onCommit(
        logBefore === undefined
          ? undefined
          : { after: logBefore, events: () => appendedEvents(logBefore, recordedAt, batchJobs, outcomes) },
      );
    }
    if (batchJobs.length > 0) observeGroup(options.onGroup, batchJobs.length);
  }

  const drain = async (): Promise<void> => {
    while (inFlight || queued()) await flush();
  };

  return {
    submit(requests) {
      return new Promise((resolve, reject) => {
        let serialized: SerializedRequest[];
        try {
          // Serialised now: JSON.stringify runs on this thread, where `toJSON` and the like live,
          // and a request that cannot be serialised fails alone.
          serialized = requests.map(serializeRequest);
        } catch (error) {
          reject(error);
          return;
        }
        jobs.push({ requests: serialized, resolve, reject });
        schedule();
      });
    },
    saveCheckpoint(subscriptionId, position) {
      return new Promise((resolve, reject) => {
        const save = checkpoints.get(subscriptionId);
        if (save) {
          save.position = position;
          save.waiters.push({ resolve, reject });
        } else {
          checkpoints.set(subscriptionId, { position, waiters: [{ resolve, reject }] });
        }
        schedule();
      });
    },
    drain,
    close() {
      closing ??= (async () => {
        await drain();
        await transport.close();
      })();
      return closing;
    },
  };
}
