/**
 * A catch-up subscription over any store that can page its global log and keep checkpoints:
 * delivers in global order (event by event, or page by page to a `handleBatch`), retries a
 * failing handler forever (never skips), sleeps between polls unless woken by an in-process
 * commit. Where the source offers a lease, one subscription
 * id is served by one process at a time: the others stand by and take over, from the stored
 * checkpoint, once the holder stops or dies.
 */
import type { RecordedEvent, SubscribeToAllOptions, Subscription } from './port.ts';

export interface CatchUpSource {
  /**
   * A page of the global log. The events may be shared with other subscriptions of the process
   * (a `LogReader`'s, frozen): the subscription hands them on and never changes them.
   */
  readAll(afterPosition: number, limit: number): Promise<readonly RecordedEvent[]>;
  /** Global position of the last committed event, 0 when the log is empty. */
  headPosition(): Promise<number>;
  loadCheckpoint(subscriptionId: string): Promise<number>;
  saveCheckpoint(subscriptionId: string, position: number): Promise<void>;
  /** Exclusive right to serve a subscription id across processes; without it every subscriber serves. */
  lease?: (subscriptionId: string) => Lease;
}

export interface Lease {
  /** Resolves once held, or once `stopping` is aborted. Polls while another process holds it. */
  acquire(stopping: AbortSignal): Promise<void>;
  /**
   * False until acquired, and again once lost (its connection died): the subscription then stops
   * delivering after the event in hand and acquires again. Handlers are idempotent, so the brief
   * overlap with a new holder around such a loss is harmless.
   */
  readonly held: boolean;
  release(): Promise<void>;
}

/** `event`: the event that failed, or the first of the page that failed (`handleBatch`). */
export type HandlerErrorListener = (
  error: unknown,
  event: RecordedEvent,
  attempt: number,
  subscriptionId: string,
) => void;

export type CatchUpOptions = SubscribeToAllOptions & {
  /** Events read per page (and the most a `handleBatch` gets at once); default `DEFAULT_PAGE_SIZE`. */
  batchSize?: number;
  onHandlerError?: HandlerErrorListener;
  /**
   * After a page shorter than `batchSize` (the subscription is at the head), wakes are held back
   * this long, so that the commits of that time are read as one page rather than one page each.
   * Default 0 (read at each wake). The stores set it (PostgreSQL 100 ms, SQLite 50 ms).
   */
  coalesceMs?: number;
  /**
   * The checkpoint is saved at most this often (always on stop and when a handler fails), at
   * the first page read after it is due; a subscription at the head with a checkpoint still to
   * save reads again once it is due rather than at the next poll, so the stored checkpoint of an
   * idle subscription is at most this old. Handlers are idempotent: a crash redelivers the events
   * handled since the last save. Default 0: after every page.
   */
  checkpointEveryMs?: number;
};

export interface CatchUpSubscription extends Subscription {
  /** New events were committed: stop sleeping and read. */
  wake(): void;
}

/**
 * A page's fixed costs (a carrier request, an append, a views transaction, a read of the views'
 * revisions) are paid once for all its events. At 100 events a page, carrier registration fell
 * behind the embedded stack under load: behind the log reader's window, it read nine tenths of the
 * log back from the file on its own, and finished a second after the load. At 250 it keeps up and
 * nothing is read twice (docs/benchmarks.md, "Pages of 250 events"). Pages of 1 000, larger than
 * that window, gained nothing.
 */
export const DEFAULT_PAGE_SIZE = 250;

const firstBackoffMs = 50;
const maxBackoffMs = 2000;

const warnHandlerError: HandlerErrorListener = (error, event, attempt, subscriptionId) => {
  console.warn(
    `subscription ${subscriptionId}: handler failed on position ${event.globalPosition} (attempt ${attempt}), retrying`,
    error,
  );
};

export function startCatchUpSubscription(source: CatchUpSource, options: CatchUpOptions): CatchUpSubscription {
  const { subscriptionId: id } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const batchSize = options.batchSize ?? DEFAULT_PAGE_SIZE;
  const onHandlerError = options.onHandlerError ?? warnHandlerError;
  const coalesceMs = options.coalesceMs ?? 0;
  const checkpointEveryMs = options.checkpointEveryMs ?? 0;
  const { streamPrefixes } = options;
  /** The subscription's own store of checkpoints where it has one; the event store's before its first save there. */
  const loadCheckpoint = (): Promise<number> =>
    options.checkpoints
      ? options.checkpoints.load(id).then((own) => own ?? source.loadCheckpoint(id))
      : source.loadCheckpoint(id);
  const saveCheckpoint = (at: number): Promise<void> =>
    options.checkpoints ? options.checkpoints.save(id, at) : source.saveCheckpoint(id, at);
  const reaches = (event: RecordedEvent): boolean =>
    streamPrefixes === undefined || streamPrefixes.some((prefix) => event.streamName.startsWith(prefix));

  let position = 0;
  let saved = 0;
  let savedAt = 0;
  let loaded = false;
  let stopped = false;
  let woken = false;
  let sleeper: { timer: NodeJS.Timeout; wakeable: boolean; done: () => void } | undefined;
  let waiters: { target: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  const lease = source.lease?.(id);
  const stopSignal = new AbortController();
  const holding = (): boolean => !lease || lease.held;

  const sleep = (ms: number, wakeable: boolean): Promise<void> =>
    new Promise((done) => {
      if (stopped || (wakeable && woken)) return done();
      const timer = setTimeout(() => {
        sleeper = undefined;
        done();
      }, ms);
      sleeper = { timer, wakeable, done };
    });

  const interrupt = (force: boolean): void => {
    if (!sleeper || (!force && !sleeper.wakeable)) return;
    clearTimeout(sleeper.timer);
    const { done } = sleeper;
    sleeper = undefined;
    done();
  };

  const settleWaiters = (): void => {
    const ready = waiters.filter((w) => w.target <= position);
    waiters = waiters.filter((w) => w.target > position);
    for (const w of ready) w.resolve();
  };

  const persist = async (): Promise<void> => {
    // A subscription that lost its lease must not move the new holder's checkpoint back.
    if (!loaded || position === saved || !holding()) return;
    const at = position;
    await saveCheckpoint(at);
    saved = at;
    savedAt = Date.now();
  };
  /** While events flow: at most every `checkpointEveryMs`. */
  const persistDue = (): Promise<void> => (Date.now() - savedAt >= checkpointEveryMs ? persist() : Promise.resolve());

  /** True once handled; false when stopped before the events were handled. */
  const deliver = async (handle: () => Promise<void>, first: RecordedEvent): Promise<boolean> => {
    let backoff = firstBackoffMs;
    for (let attempt = 1; !stopped; attempt++) {
      try {
        await handle();
        return true;
      } catch (error) {
        onHandlerError(error, first, attempt, id);
        await persist().catch(() => undefined);
        await sleep(backoff, false);
        backoff = Math.min(backoff * 2, maxBackoffMs);
      }
    }
    return false;
  };

  const run = async (): Promise<void> => {
    let failures = 0;
    while (!stopped) {
      try {
        if (!holding()) {
          loaded = false; // the holder moved the checkpoint meanwhile
          await lease!.acquire(stopSignal.signal);
          continue;
        }
        if (!loaded) {
          position = saved = await loadCheckpoint();
          loaded = true;
        }
        woken = false;
        const batch = await source.readAll(position, batchSize);
        if (options.handleBatch) {
          const { handleBatch } = options;
          const last = batch.at(-1);
          const page = streamPrefixes === undefined ? batch : batch.filter(reaches);
          if (last && holding() && (page.length === 0 || (await deliver(() => handleBatch(page), page[0]!)))) {
            position = last.globalPosition;
            settleWaiters();
          }
        } else {
          const { handler } = options;
          for (const event of batch) {
            if (!holding() || (reaches(event) && !(await deliver(() => handler(event), event)))) break;
            position = event.globalPosition;
            settleWaiters();
          }
        }
        failures = 0;
        await persistDue();
        if (batch.length < batchSize) {
          settleWaiters();
          if (coalesceMs > 0) await sleep(coalesceMs, false);
          const untilSaveDue = position === saved ? Infinity : checkpointEveryMs - (Date.now() - savedAt);
          await sleep(Math.max(0, Math.min(pollIntervalMs - coalesceMs, untilSaveDue)), true);
        }
      } catch {
        // The store itself failed (locked, closed, unreachable): back off and read again.
        failures++;
        await sleep(Math.min(firstBackoffMs * 2 ** failures, maxBackoffMs), false);
      }
    }
    await persist().catch(() => undefined);
    await lease?.release().catch(() => undefined);
  };

  const running = run();
  let stopping: Promise<void> | undefined;

  return {
    wake() {
      woken = true;
      interrupt(false);
    },
    async caughtUp() {
      if (stopped) throw new Error(`subscription ${id} is stopped`);
      const target = await source.headPosition();
      if (loaded && position >= target) return;
      // Standing by: caught up once the holder's stored checkpoint reaches the head.
      while (!holding() && !stopped) {
        if ((await loadCheckpoint()) >= target) return;
        await new Promise((resolve) => setTimeout(resolve, Math.min(pollIntervalMs, 200)));
      }
      await new Promise<void>((resolve, reject) => {
        waiters.push({ target, resolve, reject });
        settleWaiters();
      });
    },
    stop() {
      stopping ??= (async () => {
        stopped = true;
        stopSignal.abort();
        interrupt(true);
        await running;
        for (const w of waiters) w.reject(new Error(`subscription ${id} stopped before catching up`));
        waiters = [];
      })();
      return stopping;
    },
  };
}

/** The open subscriptions of a store object, so that closing the store stops them all. */
export function subscriptionRegistry() {
  const open = new Set<CatchUpSubscription>();
  return {
    /** Keeps `subscription` until it is stopped; the returned handle is what subscribeToAll gives out. */
    track(subscription: CatchUpSubscription): Subscription {
      open.add(subscription);
      return {
        caughtUp: () => subscription.caughtUp(),
        stop: async () => {
          await subscription.stop();
          open.delete(subscription);
        },
      };
    },
    /** New commits: every open subscription reads on now instead of at its next poll. */
    wakeAll(): void {
      open.forEach((s) => s.wake());
    },
    /** Stops every subscription still open (on close). */
    async stopAll(): Promise<void> {
      await Promise.all([...open].map((s) => s.stop()));
      open.clear();
    },
  };
}
