/**
 * The events of a parcel's stream, in the domain's shape (dates as Date), beside the decider that
 * emits them and the view built from them. Their stored shape (versioned type names, dates as ISO
 * strings, upcasters of older versions) is a wire format of packages/contracts.
 */
import type { AssignedStation, ParcelOrder } from './order.ts';

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

/**
 * The parcel's personal values were erased (its key destroyed, docs/personal-data.md): on the
 * client's request or by the retention policy. It holds nothing personal itself.
 */
export interface PersonalDataErased {
  type: 'PersonalDataErased';
  data: { trackingNumber: string; reason: 'request' | 'retention'; erasedAt: Date };
}

/**
 * The parcel is on a carrier's end-of-day manifest (packages/domain/src/manifest): the carrier
 * takes it with the others of the manifest, and it can no longer be cancelled. Once per parcel.
 */
export interface ParcelManifested {
  type: 'ParcelManifested';
  data: { trackingNumber: string; carrier: string; manifestId: string; manifestedAt: Date };
}

export type ParcelEvent =
  | ParcelRegistered
  | ParcelManifested
  | PersonalDataErased
  | LabelGenerated
  | ParcelCancelled
  | CarrierRegistered
  | CarrierRegistrationFailed
  | CarrierEventRecorded;
