import type { OrderPersonalData } from '@parcel-logistics/domain';

/**
 * The message of the downstream topic `parcel.events.v1`, one per parcel event, keyed by tracking
 * number (so ordered per parcel). JSON Schema: packages/contracts/schemas/parcel-events.v1.schema.json.
 * Delivery is at least once: consumers de-duplicate by `eventId`. It carries personal values in
 * clear, which no erasure takes back from its consumers: published only with PARCEL_DOWNSTREAM_V1=on.
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

/** Whether a parcel's personal data is still there, as of a given event of its stream. */
export type PersonalDataState = 'available' | 'erased';

/**
 * The message of `parcel.events.v2` (and the body of a webhook): v1's envelope with `data` holding
 * the event's clear part only, what the event store keeps once the parcel's personal data is erased
 * (the split of packages/domain/src/parcel/personal.ts: personal strings empty, `pod` empty, a
 * carrier's location as its public place). `personalData` says whether the parcel's personal data
 * was erased by this event of its stream (`PersonalDataErased` and every later event: 'erased').
 * The personal values themselves are on `parcel.personal.v1`, for the systems entitled to them.
 * JSON Schema: packages/contracts/schemas/parcel-events.v2.schema.json.
 */
export interface ParcelEventMessageV2 extends ParcelEventMessage {
  personalData: PersonalDataState;
}

/** Who signed for a parcel and its proof of delivery, from the latest carrier event that has either. */
export interface ParcelSignature {
  receiveBy: string;
  pod: string[];
  statusCode: string;
  /** The carrier event's time, Singapore time, ISO 8601 with offset. */
  time: string;
  eventId: string;
}

/**
 * The value of the compacted topic `parcel.personal.v1`, keyed by tracking number: the parcel's
 * current personal values, republished whole whenever they change. Erasure writes the key's
 * tombstone (a null value), after which compaction leaves nothing of the parcel.
 */
export interface ParcelPersonalMessage extends OrderPersonalData {
  trackingNumber: string;
  clientId: string;
  /** Absent until a carrier event names a signer or brings a proof of delivery. */
  signature?: ParcelSignature;
  /** The parcel event this version follows: consumers keep the highest `streamRevision` per key. */
  eventId: string;
  streamRevision: number;
}
