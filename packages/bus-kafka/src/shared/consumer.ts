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
