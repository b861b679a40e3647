/**
 * The delivery queue port: one row per (endpoint, event) still to send, in log order per endpoint.
 * Delivery state is per endpoint, and so is the lease that lets one dispatcher at a time send an
 * endpoint's queue: several webhook service instances share the endpoints, and each queue stays in order.
 * Queueing is idempotent: a page of the log handled again after a crash queues nothing twice.
 */
export interface QueuedDelivery {
  endpointId: string;
  /** The event's id: the `webhook-id` header, the same on every attempt. */
  eventId: string;
  /** The event's position in the store's log: the order of delivery per endpoint. */
  position: number;
  /** The `parcel.events.v1` JSON text, exactly as signed and sent. */
  body: string;
}

export interface PendingDelivery extends QueuedDelivery {
  attempts: number;
  nextAttemptAt: Date;
  /** When the first failed attempt of this delivery was; null before any. */
  failingSince: Date | null;
}

export interface WebhookDeliveries {
  enqueue(deliveries: readonly QueuedDelivery[], now: Date): Promise<void>;
  /** Endpoints whose oldest pending delivery is due at `now`. */
  dueEndpoints(now: Date): Promise<string[]>;
  /** The oldest pending delivery of the endpoint: the only one that may be sent now. */
  head(endpointId: string): Promise<PendingDelivery | undefined>;
  /** Done with it (delivered, or given up on); the next one becomes the head. */
  remove(endpointId: string, eventId: string): Promise<void>;
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
  /** Forgets every pending delivery of a deleted endpoint. */
  dropEndpoint(endpointId: string): Promise<void>;
  /** Resolves while the queue's store answers (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
