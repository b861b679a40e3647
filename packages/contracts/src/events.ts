/**
 * Parcel events: the domain shape (dates as Date) and one serializer per type to the stored shape
 * (versioned type name, dates as ISO strings). Stored events are forever: add a new version and an
 * upcaster rather than changing a stored shape (upcasters.ts).
 */
import type { ParcelOrder } from './parcelOrder.ts';
import { UPCASTERS } from './upcasters.ts';
import type { AssignedStation } from './views.ts';

/** What registers a parcel: the create-order command's payload, the decider's input and the event's data alike. */
export interface ParcelRegistration {
  clientId: string;
  order: ParcelOrder;
  serviceType: string;
  carrier: string;
  /** The station the parcel goes to: chosen by the client (locker_type A) or the nearest one (B). */
  lockerStation?: AssignedStation;
}

export interface ParcelRegistered {
  type: 'ParcelRegistered';
  data: ParcelRegistration & {
    trackingNumber: string;
    registeredAt: Date;
    /** The create command's id (absent in events recorded before it was kept). */
    commandId?: string;
  };
}

export interface LabelGenerated {
  type: 'LabelGenerated';
  data: { trackingNumber: string; labelType: string; direction: 'horizontal' | 'vertical'; generatedAt: Date };
}

export interface ParcelCancelled {
  type: 'ParcelCancelled';
  data: { trackingNumber: string; cancelledAt: Date };
}

/** Internal: the carrier accepted the shipment. Kept in the stream, shown on neither interface. */
export interface CarrierRegistered {
  type: 'CarrierRegistered';
  data: { trackingNumber: string; carrier: string; partnerTrackingNo: string; partnerName: string; registeredAt: Date };
}

/** Internal: one failed attempt to register the shipment with the carrier. */
export interface CarrierRegistrationFailed {
  type: 'CarrierRegistrationFailed';
  data: { trackingNumber: string; carrier: string; attempt: number; reason: string; failedAt: Date };
}

export interface CarrierEventRecorded {
  type: 'CarrierEventRecorded';
  data: {
    trackingNumber: string;
    carrier: string;
    /** The carrier's own code, kept as sent. */
    carrierCode: string;
    /** Our status code; the carrier's code when it maps to none. */
    statusCode: string;
    eventTime: Date;
    location: string;
    remarks: string;
    receiveBy: string;
    pod: string[];
    recordedAt: Date;
  };
}

export type ParcelEvent =
  | ParcelRegistered
  | LabelGenerated
  | ParcelCancelled
  | CarrierRegistered
  | CarrierRegistrationFailed
  | CarrierEventRecorded;

/** The claim of a client reference; its stream exists once per (client, reference). */
export interface ReferenceClaimed {
  type: 'ReferenceClaimed';
  data: { clientId: string; customTrackingNum: string; trackingNumber: string; claimedAt: Date };
}

/** B2 (when enabled): a batch of validated orders, recorded before the reply and created from the log. */
export interface OrderBatchAccepted {
  type: 'OrderBatchAccepted';
  data: { batchId: string; clientId: string; orders: ParcelRegistration[]; acceptedAt: Date };
}

export type DomainEvent = ParcelEvent | ReferenceClaimed | OrderBatchAccepted;

export interface StoredEvent {
  type: string;
  data: Record<string, unknown>;
}

type Serializer<E extends DomainEvent> = {
  storedType: string;
  dateFields: readonly (keyof E['data'] & string)[];
};

const serializers: { [K in DomainEvent['type']]: Serializer<Extract<DomainEvent, { type: K }>> } = {
  ParcelRegistered: { storedType: 'ParcelRegistered.v2', dateFields: ['registeredAt'] },
  LabelGenerated: { storedType: 'LabelGenerated.v1', dateFields: ['generatedAt'] },
  ParcelCancelled: { storedType: 'ParcelCancelled.v1', dateFields: ['cancelledAt'] },
  CarrierRegistered: { storedType: 'CarrierRegistered.v1', dateFields: ['registeredAt'] },
  CarrierRegistrationFailed: { storedType: 'CarrierRegistrationFailed.v1', dateFields: ['failedAt'] },
  CarrierEventRecorded: { storedType: 'CarrierEventRecorded.v1', dateFields: ['eventTime', 'recordedAt'] },
  ReferenceClaimed: { storedType: 'ReferenceClaimed.v1', dateFields: ['claimedAt'] },
  OrderBatchAccepted: { storedType: 'OrderBatchAccepted.v2', dateFields: ['acceptedAt'] },
};

const byStoredType = new Map(Object.entries(serializers).map(([type, s]) => [s.storedType, { type, ...s }]));

export function serializeEvent(event: DomainEvent): StoredEvent {
  const s = serializers[event.type] as Serializer<DomainEvent>;
  const data: Record<string, unknown> = { ...event.data };
  for (const f of s.dateFields) data[f] = (data[f] as Date).toISOString();
  return { type: s.storedType, data };
}

export class UnknownEventTypeError extends Error {
  constructor(storedType: string) {
    super(`unknown stored event type ${storedType}`);
    this.name = 'UnknownEventTypeError';
  }
}

/** A stored event of any version, upcast to the current one first. */
export function deserializeEvent(stored: { type: string; data: unknown }): DomainEvent {
  const upcaster = UPCASTERS.get(stored.type);
  if (upcaster)
    return deserializeEvent({ type: upcaster.to, data: upcaster.up(stored.data as Record<string, unknown>) });
  const s = byStoredType.get(stored.type);
  if (!s) throw new UnknownEventTypeError(stored.type);
  const data: Record<string, unknown> = { ...(stored.data as Record<string, unknown>) };
  for (const f of s.dateFields as readonly string[]) data[f] = new Date(data[f] as string);
  return { type: s.type, data } as DomainEvent;
}

export const isParcelEvent = (e: DomainEvent): e is ParcelEvent =>
  e.type !== 'ReferenceClaimed' && e.type !== 'OrderBatchAccepted';

export const parcelStreamName = (trackingNumber: string) => `parcel-${trackingNumber}`;
/** References contain only letters, digits, `-` and `_`, so `/` cannot collide. */
export const referenceStreamName = (clientId: string, customTrackingNum: string) =>
  `reference-${clientId}/${customTrackingNum}`;
export const PARCEL_STREAM_PREFIX = 'parcel-';
export const BATCH_STREAM_PREFIX = 'batch-';
export const batchStreamName = (batchId: string) => `${BATCH_STREAM_PREFIX}${batchId}`;
