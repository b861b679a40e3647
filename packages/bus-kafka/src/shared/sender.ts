import type { OutgoingRecord } from './codec.ts';

export interface Outgoing {
  topic: string;
  record: OutgoingRecord;
}

/** One produce request with these records, resolved once the broker acknowledged all of them on all in-sync replicas. */
export type SendBatch = (records: Outgoing[]) => Promise<void>;

interface Queued extends Outgoing {
  done: PromiseWithResolvers<void>;
}

export interface Sender {
  /** Resolves once the broker acknowledged the record on all in-sync replicas. */
  send(topic: string, record: OutgoingRecord): Promise<void>;
  /** Rejects whatever is still queued and waits for the produce request in flight. */
  close(error: Error): Promise<void>;
}

/**
 * One produce request in flight at a time; whatever was sent meanwhile goes out together in the
 * next one. Keeps send order per key even across retries (a client may let a later request
 * overtake a failed one), and batches concurrent sends instead of queueing one round trip each.
 */
export function createSender(sendBatch: SendBatch, options: { maxBatch?: number; lingerMs?: number } = {}): Sender {
  const { maxBatch = 500, lingerMs = 0 } = options;
  let queue: Queued[] = [];
  let flushing: Promise<void> | undefined;
  let closedWith: Error | undefined;

  async function flush(): Promise<void> {
    try {
      // Sends of the same tick join the first request; with a linger, those of the next few ms too.
      await (lingerMs > 0 ? new Promise((resolve) => setTimeout(resolve, lingerMs)) : Promise.resolve());
      while (queue.length > 0 && !closedWith) {
        const batch = queue.slice(0, maxBatch);
        queue = queue.slice(batch.length);
        try {
          await sendBatch(batch);
          for (const { done } of batch) done.resolve();
        } catch (error) {
          // What was queued behind a failed request fails with it: sent alone, it would overtake
          // the failed messages of its key once their senders retry them.
          const failed = [...batch, ...queue];
          queue = [];
          for (const { done } of failed) done.reject(error);
        }
      }
    } finally {
      // In the same synchronous step as the last emptiness check: a send arriving later starts a new flush.
      flushing = undefined;
    }
  }

  return {
    send(topic, record) {
      if (closedWith) return Promise.reject(closedWith);
      const done = Promise.withResolvers<void>();
      queue.push({ topic, record, done });
      flushing ??= flush();
      return done.promise;
    },
    async close(error) {
      closedWith ??= error;
      const abandoned = queue;
      queue = [];
      for (const { done } of abandoned) done.reject(error);
      await flushing;
    },
  };
}
