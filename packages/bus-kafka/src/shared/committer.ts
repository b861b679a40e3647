import type { BusLogger } from './log.ts';

export interface PartitionOffset {
  partition: number;
  /** The next offset to read, as Kafka commits it. */
  offset: string;
}

export interface Committer {
  /** Every record of the partition up to and including `offset` is done. */
  resolved(partition: number, offset: string): void;
  /** A position to commit as it is (a new group's starting point), as soon as possible. */
  startAt(partition: number, offset: string): void;
  /** The broker accepted these positions (from the client's commit event, whoever sent the commit). */
  committed(offsets: PartitionOffset[]): void;
  /** The member's partitions after a rebalance: positions of the others are no longer ours to commit. */
  assigned(partitions: number[]): void;
  /** Commits what is done and not committed yet, through `commit` (default: the one given at creation). Single flight. */
  flush(commit?: CommitOffsets): Promise<void>;
  /** Whether something done is not committed yet. */
  pending(): boolean;
  stop(): void;
}

export type CommitOffsets = (offsets: PartitionOffset[]) => Promise<void>;

/**
 * Commits a consumer's offsets on an interval instead of after every batch: one commit request
 * per interval while records flow, none while idle. It only ever commits positions it was told
 * are done (every record before them handled), so a commit never skips an unfinished record; what
 * is done but not committed yet when a member dies is delivered again (at least once).
 */
export function createCommitter(
  commit: CommitOffsets,
  intervalMs: number,
  context: { topic: string; groupId: string; log: BusLogger },
): Committer {
  const done = new Map<number, bigint>();
  const accepted = new Map<number, bigint>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;
  let again: CommitOffsets | undefined;
  let ours: Set<number> | undefined;
  let stopped = false;

  const outstanding = () => [...done].filter(([partition, offset]) => accepted.get(partition) !== offset);
  const arm = (delayMs = intervalMs) => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      flush().catch((error: unknown) => {
        context.log.warn(
          { topic: context.topic, groupId: context.groupId, error: (error as Error).message },
          'offset commit failed; retrying',
        );
      });
    }, delayMs);
  };

  async function flushOnce(via: CommitOffsets): Promise<void> {
    const offsets = outstanding().map(([partition, offset]) => ({ partition, offset: offset.toString() }));
    if (offsets.length === 0) return;
    try {
      await via(offsets);
    } finally {
      // A commit the client skipped or that failed leaves the positions outstanding: try again later.
      if (outstanding().length > 0) arm();
    }
  }

  function flush(via: CommitOffsets = commit): Promise<void> {
    if (flushing) {
      // Positions resolved while a commit is in flight go out in the next one, right after it.
      again = via;
      return flushing;
    }
    clearTimeout(timer);
    timer = undefined;
    flushing = (async () => {
      try {
        for (let next: CommitOffsets | undefined = via; next; next = again) {
          again = undefined;
          await flushOnce(next);
        }
      } finally {
        flushing = undefined;
      }
    })();
    return flushing;
  }

  return {
    resolved(partition, offset) {
      if (ours && !ours.has(partition)) return; // finished after the partition moved to another member
      const next = BigInt(offset) + 1n;
      if ((done.get(partition) ?? -1n) < next) done.set(partition, next);
      arm();
    },
    startAt(partition, offset) {
      done.set(partition, BigInt(offset));
      accepted.delete(partition);
      arm(0);
    },
    committed(offsets) {
      // kafkajs reports a commit it was handed through `commitOffsets` with Long offsets.
      for (const { partition, offset } of offsets) accepted.set(partition, BigInt(String(offset)));
    },
    assigned(partitions) {
      ours = new Set(partitions);
      for (const partition of [...done.keys()]) if (!ours.has(partition)) done.delete(partition);
      for (const partition of [...accepted.keys()]) if (!ours.has(partition)) accepted.delete(partition);
    },
    flush,
    pending: () => outstanding().length > 0,
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
