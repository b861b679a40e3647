/**
 * Event store on one SQLite file through Node's built-in `node:sqlite` (the embedded default).
 *
 * `node:sqlite` is synchronous, so whatever runs a COMMIT waits for its fsync. Writes (appends and
 * checkpoint saves, group-committed: `sqliteWriter.ts`) therefore go to a worker thread that owns
 * the writing connection; reads stay on this thread's connection, beside it in WAL mode. An append
 * resolves after the writer's COMMIT, so a read made after it sees it. ':memory:' writes on this
 * thread: a worker cannot share an in-memory database (and it has no fsync to wait for).
 */
import { DatabaseSync } from 'node:sqlite';
import { groupCommitCalls, toRecorded } from '@parcel-logistics/eventstore/adapter';
import type { EventRow } from '@parcel-logistics/eventstore/adapter';
import {
  createLogReader,
  startCatchUpSubscription,
  subscriptionRegistry,
  type HandlerErrorListener,
} from '@parcel-logistics/eventstore/adapter';
import type { EventStore, RecordedEvent } from '@parcel-logistics/eventstore';
import { createGroupCommitWriter, inThreadTransport, writerThreadTransport } from './sqliteWriter.ts';

export interface SqliteEventStoreOptions {
  file: string | ':memory:';
  /** 'full' (default): a resolved append survives power loss. 'normal': it survives a process crash only. */
  durability?: 'full' | 'normal';
  /** Clock for `recordedAt`. */
  now?: () => Date;
  /** Told about every failed handler attempt; defaults to a console warning. */
  onHandlerError?: HandlerErrorListener;
  /** How long a write waits for another connection's write lock before failing. */
  busyTimeoutMs?: number;
  /**
   * true (default for files): commit on a worker thread, so COMMIT and its fsync never block this
   * thread's event loop. false: commit on this thread. Always false for ':memory:'.
   */
  writerThread?: boolean;
  /**
   * Told, after each group commit, how many append calls (`append` or `appendMany`, refused ones
   * included) it carried: for metrics. Called on this thread; a throw is ignored.
   */
  onCommit?: (groupSize: number) => void;
  /**
   * After a page that reached the head, a subscription reads again no sooner than this (default
   * `SQLITE_COALESCE_MS`): under load the commits of that time come as one page instead of one page
   * each, and a page's fixed costs are paid once for them all. A commit after a quiet spell is
   * still read at once.
   */
  coalesceMs?: number;
}

/**
 * Each commit woke every subscription of the process to read and handle a page of its own: under
 * load the view's and the webhook fan-out's pages held about 50 events, each with its fixed costs
 * (a span, a read of the views' revisions, a checkpoint). Held back 50 ms, they hold about 200, a
 * quarter as many pages (docs/benchmarks.md, "Subscriptions read every 50 ms under load").
 */
const SQLITE_COALESCE_MS = 50;

const schema = `
CREATE TABLE IF NOT EXISTS events (
  global_position INTEGER PRIMARY KEY AUTOINCREMENT,
  stream_name TEXT NOT NULL,
  revision INTEGER NOT NULL,
  event_id TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  UNIQUE (stream_name, revision)
);
CREATE TABLE IF NOT EXISTS checkpoints (
  subscription_id TEXT PRIMARY KEY,
  position INTEGER NOT NULL
);`;

const columns = 'global_position, stream_name, revision, event_id, type, data, metadata, recorded_at';

export function createSqliteEventStore(options: SqliteEventStoreOptions): EventStore {
  const durability = options.durability ?? 'full';
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const threaded = options.file !== ':memory:' && options.writerThread !== false;
  const db = new DatabaseSync(options.file, { timeout: busyTimeoutMs });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(`PRAGMA synchronous = ${durability === 'normal' ? 'NORMAL' : 'FULL'}`);
  db.exec(schema);
  // Every write goes through the writer thread; this connection only reads.
  if (threaded) db.exec('PRAGMA query_only = ON');

  const readStreamStmt = db.prepare(
    `SELECT ${columns} FROM events WHERE stream_name = ? AND revision >= ? ORDER BY revision`,
  );
  const readAllStmt = db.prepare(
    `SELECT ${columns} FROM events WHERE global_position > ? ORDER BY global_position LIMIT ?`,
  );
  const headStmt = db.prepare('SELECT COALESCE(MAX(global_position), 0) AS head FROM events');
  const loadCheckpointStmt = db.prepare('SELECT position FROM checkpoints WHERE subscription_id = ?');

  const subscriptions = subscriptionRegistry();
  const transport = threaded
    ? writerThreadTransport({ file: options.file, durability, busyTimeoutMs })
    : inThreadTransport(db, durability);
  /**
   * Every page of the log is read and parsed once for all the subscriptions (the eventstore
   * package's logReader.ts); a commit voids what the reader knows of the head, and so does the end
   * of the event loop's turn (another process may commit to the same file unseen). This store's
   * own commits are handed to the reader as they are made, so subscriptions that keep up never
   * read the log back from the file.
   */
  const log = createLogReader({ readPage: (after, limit) => readAll(after, limit) });
  const writer = createGroupCommitWriter(transport, {
    now: options.now ?? (() => new Date()),
    onCommit: (appended) => {
      log.invalidate();
      if (appended) log.offer(appended.after, appended.events);
      // The subscriptions read on once the callers of the commit have gone on: what those do at
      // once with its outcome (an inline projection queues its view) comes before the pages they read.
      setImmediate(() => subscriptions.wakeAll());
    },
    ...(options.onCommit ? { onGroup: options.onCommit } : {}),
  });
  let closing: Promise<void> | undefined;
  let closed = false;

  /** Public calls are refused from the start of close; subscriptions may still save checkpoints while stopping. */
  const open = (): void => {
    if (closing) throw new Error('event store is closed');
  };
  const usable = (): void => {
    if (closed) throw new Error('event store is closed');
  };
  const readAll = (afterPosition: number, limit: number): RecordedEvent[] => {
    usable();
    // SQLite reads a negative LIMIT as "no limit".
    return (readAllStmt.all(afterPosition, Math.max(0, limit)) as unknown as EventRow[]).map(toRecorded);
  };

  return {
    ...groupCommitCalls(open, (requests) => writer.submit(requests), readAll),
    async readStream(streamName, readOptions) {
      open();
      const rows = readStreamStmt.all(streamName, readOptions?.fromRevision ?? 0) as unknown as EventRow[];
      return rows.map(toRecorded);
    },
    subscribeToAll(subscribeOptions) {
      open();
      const subscription = startCatchUpSubscription(
        {
          readAll: (after, limit) => log.read(after, limit),
          headPosition: async () => {
            usable();
            return (headStmt.get() as { head: number }).head;
          },
          loadCheckpoint: async (id) => {
            usable();
            return (loadCheckpointStmt.get(id) as { position: number } | undefined)?.position ?? 0;
          },
          // Group-committed with the appends, off this thread. Saved alone, a checkpoint commits
          // with synchronous=NORMAL (no fsync): durable against a process crash; a machine crash
          // may move it back, which only re-delivers events to the (idempotent) handlers.
          saveCheckpoint: async (id, position) => {
            usable();
            await writer.saveCheckpoint(id, position);
          },
        },
        {
          onHandlerError: options.onHandlerError,
          coalesceMs: options.coalesceMs ?? SQLITE_COALESCE_MS,
          ...subscribeOptions,
        },
      );
      return subscriptions.track(subscription);
    },
    async progress(subscriptionIds) {
      open();
      const head = (headStmt.get() as { head: number }).head;
      const checkpoints = new Map<string, number>();
      for (const id of subscriptionIds) {
        const row = loadCheckpointStmt.get(id) as { position: number } | undefined;
        if (row) checkpoints.set(id, row.position);
      }
      return { head, checkpoints };
    },
    async ping() {
      open();
      headStmt.get();
    },
    close() {
      closing ??= (async () => {
        // Checkpoints are saved while subscriptions stop, so the writer drains after them.
        await subscriptions.stopAll();
        await writer.drain();
        closed = true;
        // The reader first: the writer's connection, closing last, checkpoints the WAL on its thread.
        db.close();
        await writer.close();
      })();
      return closing;
    },
  };
}
