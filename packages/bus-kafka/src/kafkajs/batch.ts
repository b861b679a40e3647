import type { ConsumedRecord } from '../shared/codec.ts';
import { createPartitionFlow } from '../shared/flow.ts';
import type { RecordHandler } from '../shared/flow.ts';

export type { RecordHandler };

export interface BatchOptions {
  /** Records of different keys handled at once. */
  concurrency: number;
  /** Every record up to and including `offset` is done. */
  resolve: (offset: string) => void;
  /** False once no further record may start (stopping, or giving way to a rebalance). */
  proceed: () => boolean;
  /** Set once the consumer stopped waiting for this batch: its late completions must not move the offset. */
  abandoned: AbortSignal;
}

/**
 * Runs one partition's batch (records in offset order) on a partition flow (shared/flow.ts): records of
 * one key one after another, different keys side by side. An offset is resolved (and so committed)
 * only once every record before it is done, so a commit never skips a record that is still being
 * handled. Resolves once nothing of the batch runs; rejects with the first handler error, after
 * which nothing more of the batch starts.
 */
export async function runBatch(records: ConsumedRecord[], handle: RecordHandler, options: BatchOptions): Promise<void> {
  let failure: { error: unknown } | undefined;
  const flow = createPartitionFlow({
    concurrency: options.concurrency,
    handle,
    resolve: (offset) => {
      if (!options.abandoned.aborted) options.resolve(offset);
    },
    proceed: options.proceed,
    failed: (error) => (failure ??= { error }),
  });
  for (const record of records) flow.push(record);
  await flow.idle();
  if (failure) throw failure.error;
}
