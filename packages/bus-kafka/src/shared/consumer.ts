/** What the bus asks of a consumer group member, on either client. */

export interface BatchContext {
  /** False once the consumer stops or should give way to a rebalance: start nothing new. */
  proceed: () => boolean;
  /** Every record of the batch's partition up to and including `offset` is done: fetch on after it, commit it soon. */
  resolve: (offset: string) => void;
  abandoned: AbortSignal;
  /** Aborted when the consumer stops: cuts redelivery pauses short. */
  stopping: AbortSignal;
}

export interface GroupConsumer {
  /** `drain` lets running handlers finish (bounded); `abandon` leaves them to redelivery at once. */
  stop(mode: 'drain' | 'abandon'): Promise<void>;
}

/** Waits for `work` at most `ms`, logging nothing: the caller goes on either way. */
export async function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await Promise.race([work.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts a consumer (or its message stream) again, a second after `schedule()` and a second after
 * each failed start (told to `failed`), until `stopping` is aborted. `cancel` drops a start not
 * begun yet, when the consumer stops.
 */
export function restarter(
  stopping: AbortSignal,
  start: () => Promise<void>,
  failed: (error: Error) => void,
): { schedule(): void; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const again = async (): Promise<void> => {
    if (stopping.aborted) return;
    await start().catch((error: unknown) => {
      failed(error as Error);
      schedule();
    });
  };
  const schedule = (): void => {
    if (!stopping.aborted) timer = setTimeout(() => void again(), 1_000);
  };
  return { schedule, cancel: () => clearTimeout(timer) };
}

/**
 * Starts a consumer: `start` resolves once it serves. After `limit.ms` `limit.expired` gets the
 * error to fail the start with; a start that fails stops the consumer, abandoning what runs, and throws.
 */
export async function startOrAbandon(
  consumer: GroupConsumer,
  start: () => Promise<void>,
  limit: { ms: number; what: string; expired: (error: Error) => void },
): Promise<GroupConsumer> {
  const timer = setTimeout(
    () => limit.expired(new Error(`${limit.what} did not start within ${limit.ms} ms`)),
    limit.ms,
  );
  try {
    await start();
    return consumer;
  } catch (error) {
    await consumer.stop('abandon');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
