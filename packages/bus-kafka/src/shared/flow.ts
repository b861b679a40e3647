import type { ConsumedRecord } from './codec.ts';

/** Handles one record; resolves false when it gave up without finishing it (the consumer is stopping). */
export type RecordHandler = (record: ConsumedRecord) => Promise<boolean>;

export interface FlowOptions {
  /** Keys handled at once. */
  concurrency: number;
  handle: RecordHandler;
  /** Every record up to and including `offset` is done. */
  resolve: (offset: string) => void;
  /** False once no further record may start (stopping, revoked). */
  proceed: () => boolean;
  /** A handler threw: nothing more starts until `retry` is called. */
  failed: (error: unknown) => void;
  /** A record is done: one fewer unfinished. */
  settled?: () => void;
}

export interface PartitionFlow {
  /** A record fetched, in offset order: it starts at once unless a record of its key is unfinished. */
  push(record: ConsumedRecord): void;
  /** After a failure, once nothing runs: every unfinished record starts again, in offset order. */
  retry(): void;
  /** Resolves once no handler runs. */
  idle(): Promise<void>;
  /** Records pushed and not done. */
  readonly unfinished: number;
}

interface Entry {
  record: ConsumedRecord;
  done: boolean;
}

const keyOf = (record: ConsumedRecord): string =>
  record.key ? record.key.toString('latin1') : `\u0000${record.offset}`;

/**
 * One partition's records as they arrive (the @platformatic/kafka adapter pushes each record when it
 * is fetched; the kafkajs adapter a whole batch, see kafkajs/batch.ts): a record starts at once, unless a record of the same key is still unfinished (one key in order, keys side by
 * side, at most `concurrency` keys at once). A record no longer waits for the slowest one of the
 * fetch before it. Offsets are resolved in order only: an offset is resolved (and so committed)
 * once every record up to it is done, whatever order they finished in.
 */
export function createPartitionFlow(options: FlowOptions): PartitionFlow {
  /** Unfinished records and done ones behind an unfinished one, in offset order. */
  const entries: Entry[] = [];
  /** Per key, its records not done yet, in offset order; the first one may be running. */
  const chains = new Map<string, Entry[]>();
  /** Keys whose chain waits for a worker. */
  const ready: string[] = [];
  let workers = 0;
  let unfinished = 0;
  let failing = false;
  let idleWaiters: (() => void)[] = [];

  const canStart = () => !failing && options.proceed();

  const finish = (entry: Entry) => {
    entry.done = true;
    unfinished -= 1;
    let last: ConsumedRecord | undefined;
    while (entries[0]?.done) last = entries.shift()!.record;
    if (last) options.resolve(last.offset);
  };

  const worker = async (): Promise<void> => {
    workers += 1;
    try {
      for (let key = ready.shift(); key !== undefined; key = canStart() ? ready.shift() : undefined) {
        const chain = chains.get(key)!;
        while (chain.length > 0 && canStart()) {
          const entry = chain[0]!;
          let completed: boolean;
          try {
            completed = await options.handle(entry.record);
          } catch (error) {
            failing = true;
            options.failed(error);
            return;
          }
          if (!completed) {
            ready.unshift(key); // given up (stopping): its key stays first in line
            return;
          }
          chain.shift();
          finish(entry);
          options.settled?.();
        }
        if (chain.length === 0) chains.delete(key);
        else ready.unshift(key); // stopped mid-chain: its key stays first in line
      }
    } finally {
      workers -= 1;
      if (workers === 0) {
        const waiting = idleWaiters;
        idleWaiters = [];
        for (const wake of waiting) wake();
      }
    }
  };

  const startWorkers = () => {
    while (workers < options.concurrency && ready.length > 0 && canStart()) void worker();
  };

  const enqueue = (entry: Entry) => {
    const key = keyOf(entry.record);
    const chain = chains.get(key);
    if (chain) chain.push(entry);
    else {
      chains.set(key, [entry]);
      ready.push(key);
    }
  };

  return {
    push(record) {
      const entry = { record, done: false };
      entries.push(entry);
      unfinished += 1;
      enqueue(entry);
      startWorkers();
    },
    retry() {
      failing = false;
      chains.clear();
      ready.length = 0;
      for (const entry of entries) if (!entry.done) enqueue(entry);
      startWorkers();
    },
    idle() {
      return workers === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
    },
    get unfinished() {
      return unfinished;
    },
  };
}
