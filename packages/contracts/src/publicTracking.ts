/**
 * What the public tracking page may show of a parcel, read without an account: the timeline
 * (descriptions, times, and locations only as public places, `publicPlaceOf`), the carrier and its number, the locker station. Never a name,
 * phone, email or street address of a person, the client's reference, the declared value, the
 * remarks (a carrier may write a name there), who received it or the proof of delivery.
 */
import { publicPlaceOf } from '@parcel-logistics/domain';
import type { StoredParcelView } from './views.ts';

interface PublicActivity {
  /** Singapore time, ISO 8601 with offset. */
  dateTime: string;
  statusCode: string;
  statusDesc: string;
  location: string;
}

export interface PublicTracking {
  trackingNumber: string;
  /** The carrier's name, or its code when it has none yet. */
  carrier: string;
  /** The carrier's own number, empty until it registered the parcel. */
  partnerTrackingNo: string;
  /** The locker station the parcel goes to: a public place, never the recipient's address. */
  lockerStation?: { code: string; name: string; address: string; zipcode: string };
  /** Most recent first. */
  activities: PublicActivity[];
}

/** The public view of a parcel; null when it has nothing to show (no published activity). */
export function publicTrackingOf(view: StoredParcelView): PublicTracking | null {
  if (view.activities.length === 0) return null;
  const s = view.lockerStation;
  return {
    trackingNumber: view.trackingNumber,
    carrier: view.partnerName || view.carrier,
    partnerTrackingNo: view.partnerTrackingNo,
    ...(s ? { lockerStation: { code: s.code, name: s.name, address: s.address, zipcode: s.zipcode } } : {}),
    activities: view.activities.map((a) => ({
      dateTime: a.dateTime,
      statusCode: a.statusCode,
      statusDesc: a.statusDesc,
      location: publicPlaceOf(a.location),
    })),
  };
}
