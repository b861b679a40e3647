/**
 * The delivery port: one message per (endpoint, event), sent in log order per endpoint, kept after
 * it is settled (delivered or given up on) with every attempt, until retention prunes it; and the
 * replay requests the webhook service performs. State is per endpoint, and so is the lease that
 * lets one webhook service instance at a time send (or replay into) an endpoint's queue: several
 * instances share the endpoints, and each queue stays in order. Queueing is idempotent: a page of
 * the log handled again after a crash queues nothing twice.
 */
export interface QueuedDelivery {
  endpointId: string;
  /** The event's id: the `webhook-id` header, the same on every attempt and every redelivery. */
  eventId: string;
  /** The event's position in the store's log: the order of delivery per endpoint. */
  position: number;
  /** The `parcel.events.v2` JSON text (nothing personal), exactly as signed and sent. */
  body: string;
}

/** A test event's position: it has no place in the log, so it is queued behind every parcel event. */
export const TEST_EVENT_POSITION = Number.MAX_SAFE_INTEGER;

export interface PendingDelivery extends QueuedDelivery {
  /** Attempts since it was last queued (a redelivery or a replay starts again at 0). */
  attempts: number;
  nextAttemptAt: Date;
  /** When the first failed attempt of this delivery was; null before any. */
  failingSince: Date | null;
}

/** `failed`: given up on after the retry schedule, or refused for good. */
export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface DeliveryMessage extends PendingDelivery {
  state: DeliveryState;
  /** When it was last queued: first by the fan-out, again by a redelivery or a replay. */
  queuedAt: Date;
  /** When it was delivered or given up on; null while pending. */
  settledAt: Date | null;
}

export interface DeliveryAttempt {
  endpointId: string;
  eventId: string;
  /** 1 for the first attempt since the message was last queued. */
  attempt: number;
  at: Date;
  durationMs: number;
  /** The HTTP status of the answer; null when there was none (network error, timeout, refused destination). */
  status: number | null;
  /** The first bytes of the answer's body as text, bounded by the sender; empty when there was none. */
  answer: string;
  /** Why it failed (`HTTP 500`, `no answer within 10000 ms`, `refused destination: …`); empty when delivered. */
  reason: string;
}

export interface RecordedAttempt extends DeliveryAttempt {
  /** Increasing in the order attempts were recorded: the paging cursor of `attempts`. */
  seq: number;
}

/** Where a page of messages, newest first, starts after: the last message of the page before. */
export interface MessageCursor {
  position: number;
  eventId: string;
}

type RedeliverOutcome = 'queued' | 'pending' | 'unknown';

export type ReplayStatus = 'requested' | 'running' | 'done';

export interface ReplayRequest {
  id: string;
  endpointId: string;
  /** Events recorded at or after this time are queued again. */
  since: Date;
  /** When it was asked for. */
  requestedAt: Date;
  status: ReplayStatus;
  /** The log is read after this position (0 before the first page): a restarted replay resumes here. */
  position: number;
  /** Events of the log read so far, and how many of them were queued again for the endpoint. */
  scanned: number;
  queued: number;
  finishedAt: Date | null;
}

interface PruneCounts {
  messages: number;
  attempts: number;
  replays: number;
}

export interface WebhookDeliveries {
  /** New messages, pending; a message the endpoint already has (in any state) is left as it is. */
  enqueue(deliveries: readonly QueuedDelivery[], now: Date): Promise<void>;
  /** Queues again, pending from `now` with no attempts, whatever the state; adds those it does not have. */
  requeue(deliveries: readonly QueuedDelivery[], now: Date): Promise<void>;
  /** Endpoints whose oldest pending delivery is due at `now`. */
  dueEndpoints(now: Date): Promise<string[]>;
  /** The oldest pending delivery of the endpoint: the only one that may be sent now. */
  head(endpointId: string): Promise<PendingDelivery | undefined>;
  /** Delivered, or given up on, at `at` after `attempts` attempts; the next pending one becomes the head. */
  settle(endpointId: string, eventId: string, state: 'delivered' | 'failed', attempts: number, at: Date): Promise<void>;
  /** A failed attempt: try again at `at`. */
  retryAt(endpointId: string, eventId: string, attempts: number, at: Date, failingSince: Date): Promise<void>;
  /**
   * Claims the endpoint's queue for `owner` until `until`, or renews the claim it holds: true when
   * `owner` holds it now. Refused while another owner's claim has not expired at `now`; an expired
   * claim (its owner died) is taken over. Checked and written at once, so two claimants never both win.
   */
  claim(endpointId: string, owner: string, now: Date, until: Date): Promise<boolean>;
  /** Gives up `owner`'s claim on the endpoint's queue (nothing when another owner holds it). */
  release(endpointId: string, owner: string): Promise<void>;
  recordAttempt(attempt: DeliveryAttempt): Promise<void>;
  /** The endpoint's messages, newest (highest position) first, after `before` when given. */
  messages(endpointId: string, page: { limit: number; before?: MessageCursor }): Promise<DeliveryMessage[]>;
  /** The endpoint's attempts, newest first, with `seq` below `before` when given, of one message when `eventId` is given. */
  attempts(endpointId: string, page: { limit: number; before?: number; eventId?: string }): Promise<RecordedAttempt[]>;
  /** A settled message goes out again with the same event id; `pending` when it already waits (nothing changes). */
  redeliver(endpointId: string, eventId: string, now: Date): Promise<RedeliverOutcome>;
  /** Stores a new replay unless the endpoint has one not done (checked and written at once). */
  requestReplay(replay: ReplayRequest): Promise<'requested' | 'busy'>;
  getReplay(endpointId: string, id: string): Promise<ReplayRequest | undefined>;
  /** Replays not done yet, oldest request first. */
  openReplays(): Promise<ReplayRequest[]>;
  /** Replaces the stored replay of the same id (its progress and status). */
  updateReplay(replay: ReplayRequest): Promise<void>;
  /** Forgets messages settled, attempts made and replays finished before `before`; pending messages stay. */
  prune(before: Date): Promise<PruneCounts>;
  /** Forgets every message, attempt and replay of a deleted endpoint. */
  dropEndpoint(endpointId: string): Promise<void>;
  /** Resolves while the queue's store answers (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
