/**
 * The events of a manifest's stream, beside its decider (decider.ts). A manifest holds nothing
 * personal: numbers, the client's reference, the service, the destination country, the weight and
 * the count of items. Erasure (docs/personal-data.md) has nothing to take from it.
 */
import type { Weight } from '../parcel/order.ts';

/** One parcel of a manifest, as the carrier's driver checks it off. */
export interface ManifestLine {
  trackingNumber: string;
  /** The client's own reference of the order. */
  customTrackingNum: string;
  serviceType: string;
  /** The recipient's country. */
  destination: string;
  weight: Weight;
  /** Items of the order (the sum of its lines' quantities). */
  pieces: number;
  /** The carrier's own number of the parcel. */
  partnerTrackingNo: string;
}

/**
 * The manifest and the parcels it is to close, recorded before any of them is marked: whoever
 * finishes it (the request, or the order service's worker after a crash) marks the same list.
 */
export interface ManifestRecorded {
  type: 'ManifestRecorded';
  data: { manifestId: string; clientId: string; carrier: string; lines: ManifestLine[]; recordedAt: Date };
}

/**
 * Every parcel of the list was asked: `trackingNumbers` are those marked as on this manifest (in
 * the list's order), a parcel taken by another manifest or cancelled meanwhile is left out. The
 * manifest is what it holds from here on.
 */
export interface ManifestCompleted {
  type: 'ManifestCompleted';
  data: { manifestId: string; trackingNumbers: string[]; completedAt: Date };
}

export type ManifestEvent = ManifestRecorded | ManifestCompleted;
