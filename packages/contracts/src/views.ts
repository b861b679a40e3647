/** Read models served by the query endpoints. */
import type { ValidOrder } from './order.ts';

export interface Activity {
  /** Singapore time, ISO 8601 with offset. */
  dateTime: string;
  statusCode: string;
  statusDesc: string;
  remarks: string;
  receiveBy: string;
  pod: string[];
  location: string;
  eventId: string;
}

export interface AssignedStation {
  code: string;
  name: string;
  address: string;
  addressDetail: string;
  zipcode: string;
  /** Metres from the order's postal code (locker_type B) or as sent (locker_type A). */
  distance: number;
}

export interface ParcelView {
  trackingNumber: string;
  clientId: string;
  customTrackingNum: string;
  /** Stream revision of the last event applied: the projection's guard. */
  revision: number;
  status: 'active' | 'cancelled';
  serviceType: string;
  carrier: string;
  weightUnit: string;
  order: ValidOrder;
  lockerStation?: AssignedStation;
  partnerTrackingNo: string;
  partnerName: string;
  createdAt: string;
  /** Id of the command that created the parcel: lets a gateway that lost the reply recognise its own order. */
  createdByCommand?: string;
  /** Publishable activities, most recent first. */
  activities: Activity[];
}
