import type { KafkaMessage } from 'kafkajs';

/** Handles one record; resolves false when it gave up without finishing it (the consumer is stopping). */
export type RecordHandler = (record: KafkaMessage) => Promise<boolean>;

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
 * Runs one partition's batch (records in offset order): records of one key one after another, different
 * keys side by side. An offset is resolved (and so committed) only once every record before it is
 * done, so a commit never skips a record that is still being handled.
 */
export async function runBatch(records: KafkaMessage[], handle: RecordHandler, options: BatchOptions): Promise<void> {
  const done = records.map(() => false);
  let next = 0;
  const finish = (index: number) => {
    done[index] = true;
    const before = next;
    while (next < records.length && done[next]) next += 1;
    const last = records[next - 1];
    if (next > before && last && !options.abandoned.aborted) options.resolve(last.offset);
  };

  const chains = new Map<string, number[]>();
  records.forEach((record, index) => {
    // A record without a key has no order to keep: it gets a chain of its own.
    const key = record.key ? record.key.toString('latin1') : `\u0000${record.offset}`;
    const chain = chains.get(key);
    if (chain) chain.push(index);
    else chains.set(key, [index]);
  });

  const waiting = [...chains.values()];
  let failure: { error: unknown } | undefined;
  const proceed = () => !failure && options.proceed();
  const worker = async () => {
    for (let chain = waiting.shift(); chain && proceed(); chain = waiting.shift()) {
      for (const index of chain) {
        const record = records[index];
        if (!record || !proceed()) break;
        try {
          if (!(await handle(record))) break;
        } catch (error) {
          failure ??= { error };
          break;
        }
        finish(index);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, waiting.length) }, worker));
  if (failure) throw failure.error;
}
