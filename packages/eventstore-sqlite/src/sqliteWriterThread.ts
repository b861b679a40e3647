/**
 * The SQLite event store's writer thread: owns the writing connection and commits the batches
 * the main thread's group commit sends (`sqliteWriter.ts`), so that COMMIT's fsync blocks this
 * thread instead of the main event loop.
 *
 * Node starts it from this `.ts` file with its own type stripping, also when the main thread runs
 * under jest (jest's transform never sees a worker's modules); hence erasable syntax only, as
 * everywhere, and imports limited to this package's plain modules.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import {
  batchOutcomeToWire,
  createBatchCommitter,
  type Batch,
  type BatchCommitter,
  type BatchOutcome,
} from './sqliteAppend.ts';

export interface WriterThreadData {
  file: string;
  durability: 'full' | 'normal';
  busyTimeoutMs: number;
}

export type WriterThreadMessage = { kind: 'batch'; batch: Batch } | { kind: 'close' };

const port = parentPort;
if (!port) throw new Error('sqliteWriterThread.ts runs as a worker thread only');
const { file, durability, busyTimeoutMs } = workerData as WriterThreadData;

let db: DatabaseSync | undefined;
let committer: BatchCommitter | undefined;

function open(): BatchCommitter {
  if (committer) return committer;
  try {
    db = new DatabaseSync(file, { timeout: busyTimeoutMs });
    committer = createBatchCommitter(db, durability);
    return committer;
  } catch (error) {
    db?.close();
    db = undefined;
    throw error;
  }
}

// Opened at once so the first batch does not wait for it; a failure here is not fatal: the open is
// retried for each batch, and a batch that cannot open answers with the reason.
try {
  open();
} catch {
  // reported with the first batch
}

port.on('message', (message: WriterThreadMessage) => {
  if (message.kind === 'close') {
    db?.close();
    port.close();
    return;
  }
  let outcome: BatchOutcome;
  try {
    outcome = open().commit(message.batch);
  } catch (error) {
    outcome = { committed: false, error };
  }
  port.postMessage(batchOutcomeToWire(outcome));
});
