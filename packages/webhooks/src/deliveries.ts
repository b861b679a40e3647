/**
 * The delivery queue port: one row per (endpoint, event) still to send, in log order per endpoint.
 * Delivery state is per endpoint, so the distributed webhook service can later shard endpoints.
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
  /** Forgets every pending delivery of a deleted endpoint. */
  dropEndpoint(endpointId: string): Promise<void>;
  close(): Promise<void>;
}
