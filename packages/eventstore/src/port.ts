/** Event store port: streams of events with optimistic concurrency, a global log and catch-up subscriptions. */

/** `no_stream`: the stream must not exist; `stream_exists`: it must; a number: the revision of its last event. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export interface EventToAppend {
  id: string;
  /** Stored type name, version included: `ParcelRegistered.v1`. */
  type: string;
  data: unknown;
  metadata?: Record<string, unknown>;
}

export interface RecordedEvent {
  id: string;
  streamName: string;
  type: string;
  /** 0-based position of the event in its stream. */
  revision: number;
  /** 1-based position in the store's global log; strictly increasing in commit order. */
  globalPosition: number;
  data: unknown;
  metadata: Record<string, unknown>;
  /** ISO 8601 UTC time the store recorded the event. */
  recordedAt: string;
}

export interface AppendRequest {
  streamName: string;
  expectedRevision: ExpectedRevision;
  events: EventToAppend[];
}

export interface AppendResult {
  streamName: string;
  /** Revision of the last event appended. */
  nextExpectedRevision: number;
  lastGlobalPosition: number;
}

export class WrongExpectedRevisionError extends Error {
  readonly streamName: string;
  readonly expected: ExpectedRevision;
  /** Revision of the stream's last event, or -1 when it has none. */
  readonly actual: number;
  constructor(streamName: string, expected: ExpectedRevision, actual: number) {
    super(`stream ${streamName}: expected revision ${String(expected)}, actual ${actual}`);
    this.name = 'WrongExpectedRevisionError';
    this.streamName = streamName;
    this.expected = expected;
    this.actual = actual;
  }
}

export interface Subscription {
  /** Resolves once every event committed before the call has been handled. */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

export interface SubscriptionSettings {
  /**
   * Names the stored checkpoint: a restarted subscription resumes after the last handled event.
   * Where several processes share a store (PostgreSQL), one id is served by one of them at a time;
   * the others stand by and take over from the checkpoint when it stops or dies.
   */
  subscriptionId: string;
  /** Polling interval for commits made by other processes. */
  pollIntervalMs?: number;
  /**
   * The streams the handler reads, by name prefix: the events of other streams do not reach it
   * (a page handler gets its page without them) and the checkpoint moves past them all the same.
   * Decorators hand on only what reaches the handler, so the sealing store opens nothing else.
   * Absent: every event.
   */
  streamPrefixes?: readonly string[];
  /**
   * Where the checkpoint is kept, when not in the event store: a projection keeps it in its own
   * store, written after what its pages wrote there, so that a crash of the machine that loses the
   * projection's last writes takes the checkpoint back with them and their events come again.
   */
  checkpoints?: CheckpointStore;
}

/** A subscription's checkpoints kept outside the event store (`SubscriptionSettings.checkpoints`). */
export interface CheckpointStore {
  /** The position saved here, or undefined when none is: the subscription then starts from the event store's. */
  load(subscriptionId: string): Promise<number | undefined>;
  save(subscriptionId: string, position: number): Promise<void>;
}

/** One event at a time, or one page at a time (`handleBatch`): a handler takes one of the two. */
export type SubscribeToAllOptions = SubscriptionSettings &
  (
    | {
        /** Called in global order; a throw is retried (with backoff) and the checkpoint does not move. */
        handler: (event: RecordedEvent) => Promise<void>;
        handleBatch?: never;
      }
    | {
        /**
         * Called with each page of the log read (one or more events, in global order, at most the
         * subscription's page size), for handlers that do one round trip for many events. A throw
         * retries the whole page (with backoff) and the checkpoint stays before it, so events
         * handled before the throw come again: the handler must be idempotent.
         */
        handleBatch: (events: readonly RecordedEvent[]) => Promise<void>;
        handler?: never;
      }
  );

/** Where the log's head and some subscriptions' stored checkpoints are (metrics read it on scrape). */
export interface LogProgress {
  /** Global position of the last committed event, 0 when the log is empty. */
  head: number;
  /** The stored checkpoint of each id asked about that has one. */
  checkpoints: ReadonlyMap<string, number>;
}

export interface EventStore {
  append(request: AppendRequest): Promise<AppendResult>;
  /** All requests commit together or none does (the first conflict rejects the whole call). */
  appendMany(requests: AppendRequest[]): Promise<AppendResult[]>;
  /** Events of one stream, from `fromRevision` (inclusive, default 0); empty when the stream does not exist. */
  readStream(streamName: string, options?: { fromRevision?: number }): Promise<RecordedEvent[]>;
  /** Events of the global log after `afterPosition` (exclusive, default 0), at most `limit`. */
  readAll(options: { afterPosition?: number; limit: number }): Promise<RecordedEvent[]>;
  subscribeToAll(options: SubscribeToAllOptions): Subscription;
  /**
   * The log's head and the stored checkpoints of `subscriptionIds`, read together (for the
   * subscription-lag metric). Every adapter has it; decorators pass it on, test doubles may omit it.
   */
  progress?(subscriptionIds: readonly string[]): Promise<LogProgress>;
  /** Store reachable (for /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A stored event as a one-time migration reads and rewrites it. */
export interface StoredRow {
  globalPosition: number;
  id: string;
  streamName: string;
  type: string;
  data: unknown;
}

/**
 * Rewrites stored events in place, by id: for one-time migrations only (sealing the personal
 * values that events written before held in clear, docs/personal-data.md). Stores that cannot
 * rewrite an event (KurrentDB's are immutable) have none. Each migration is recorded by name, once.
 */
export interface EventRewriter {
  /** Whether the migration of this name ran to its end. */
  ran(name: string): Promise<boolean>;
  /** Events of the given types after `afterPosition`, oldest first, at most `limit`. */
  page(types: readonly string[], afterPosition: number, limit: number): Promise<StoredRow[]>;
  /** Replaces type and data of each event, all in one transaction. */
  rewrite(events: readonly { id: string; type: string; data: unknown }[]): Promise<void>;
  /** Records that the migration ran, with what it did. */
  record(name: string, detail: Record<string, unknown>): Promise<void>;
  /** Leaves no former bytes of rewritten events in the store's files, as far as the store can. */
  shred(): Promise<void>;
  close(): Promise<void>;
}
