import type { OutgoingRecord } from './codec.ts';

export interface Outgoing {
  topic: string;
  record: OutgoingRecord;
}

/** One produce request with these records, resolved once the broker acknowledged all of them on all in-sync replicas. */
export type SendBatch = (records: Outgoing[]) => Promise<void>;

interface Queued extends Outgoing {
  done: PromiseWithResolvers<void>;
  /** When it was sent (performance.now()). */
  at: number;
}

export interface Sender {
  /** Resolves once the broker acknowledged the record on all in-sync replicas. */
  send(topic: string, record: OutgoingRecord): Promise<void>;
  /** Rejects whatever is still queued and waits for the produce request in flight. */
  close(error: Error): Promise<void>;
}

/** How much each new gap between sends moves the smoothed gap (an exponentially weighted mean). */
const GAP_WEIGHT = 0.2;

/**
 * One produce request in flight at a time; whatever was sent meanwhile goes out together in the
 * next one. Keeps send order per key even across retries (a client may let a later request
 * overtake a failed one), and batches concurrent sends instead of queueing one round trip each.
 *
 * The linger is waited only while sends come faster than one per linger (their smoothed gap is
 * shorter than it): then it gathers, into one produce request, records that would otherwise go
 * one request each, and one fetch at the other end, and every process and the broker wake once
 * for them all. A send that comes alone, slower than that, goes at once: a quiet stack answers as
 * fast as with no linger.
 */
export function createSender(sendBatch: SendBatch, options: { maxBatch?: number; lingerMs?: number } = {}): Sender {
  const { maxBatch = 500, lingerMs = 0 } = options;
  let queue: Queued[] = [];
  let flushing: Promise<void> | undefined;
  let closedWith: Error | undefined;
  let lastSendAt: number | undefined;
  let gapMs = Infinity;

  /** A send at `now`: the smoothed gap between sends takes it in. */
  function sent(now: number): void {
    if (lastSendAt !== undefined) {
      const gap = now - lastSendAt;
      gapMs = gapMs === Infinity ? gap : gapMs + GAP_WEIGHT * (gap - gapMs);
    }
    lastSendAt = now;
  }

  /** How long the oldest record queued has yet to wait for others (0 unless sends come fast and a request has room). */
  function lingerLeft(): number {
    if (lingerMs === 0 || gapMs >= lingerMs || queue.length >= maxBatch) return 0;
    return Math.max(0, Math.ceil(queue[0]!.at + lingerMs - performance.now()));
  }

  async function flush(): Promise<void> {
    try {
      // Sends of the same tick join the first request.
      await Promise.resolve();
      while (queue.length > 0 && !closedWith) {
        // While sends come fast, the oldest record waits out its linger (what it waited behind the
        // request in flight counts), and those sent meanwhile go with it.
        const wait = lingerLeft();
        if (wait > 0) {
          // The global timer, not node:timers/promises: the tests drive it with fake timers.
          await new Promise((resolve) => setTimeout(resolve, wait));
          continue;
        }
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
      const at = performance.now();
      sent(at);
      queue.push({ topic, record, done, at });
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
