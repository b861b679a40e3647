/**
 * The message of the downstream topic `parcel.events.v1`, one per parcel event, keyed by tracking
 * number (so ordered per parcel). JSON Schema: packages/contracts/schemas/parcel-events.v1.schema.json.
 * Delivery is at least once: consumers de-duplicate by `eventId`.
 */
export interface ParcelEventMessage {
  /** Event type without its version, e.g. `ParcelRegistered`. */
  type: string;
  /** Stored type with its version, e.g. `ParcelRegistered.v1`. */
  schema: string;
  eventId: string;
  trackingNumber: string;
  clientId: string;
  /** The status code the event shows as; null for internal records (carrier registration). */
  statusCode: string | null;
  /** When it happened, Singapore time, ISO 8601 with offset. */
  time: string;
  /** 0-based position of the event in its parcel's stream. */
  streamRevision: number;
  /** The event's stored data (dates as ISO 8601 strings). */
  data: Record<string, unknown>;
}

export const DOWNSTREAM_HEADERS = { eventType: 'event-type', eventId: 'event-id', traceparent: 'traceparent' } as const;
