/**
 * The parcel status view: evolve(view | null, event) -> view, guarded by stream revision by its caller.
 * The projections store it with the order in the interface B body's shape (packages/contracts maps it).
 */
import { statusDescription } from '../statusCatalogue.ts';
import { formatSgt } from '../time.ts';
import type { ParcelEvent } from './events.ts';
import type { AssignedStation, ParcelOrder } from './order.ts';
import { splitPersonal } from './personal.ts';
import { publicPlaceOf } from './publicPlace.ts';
import { finalAtOf } from './retention.ts';

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

export interface ParcelView {
  trackingNumber: string;
  clientId: string;
  customTrackingNum: string;
  /** Stream revision of the last event applied: the projection's guard. */
  revision: number;
  status: 'active' | 'cancelled';
  serviceType: string;
  carrier: string;
  order: ParcelOrder;
  lockerStation?: AssignedStation;
  partnerTrackingNo: string;
  partnerName: string;
  createdAt: string;
  /** Id of the command that created the parcel: lets a gateway that lost the reply recognise its own order. */
  createdByCommand?: string;
  /** Publishable activities, most recent first. */
  activities: Activity[];
  /**
   * When the parcel reached its final status (the earliest activity with one, retention.ts), as
   * the activity gives it; absent before. The retention sweep counts its days from it. Views
   * stored before it existed get it with their next event.
   */
  finalAt?: string;
  /** Its personal values were erased (docs/personal-data.md): the order and activities keep none. */
  personalDataErased?: true;
  /** The end-of-day manifest it is on; absent while on none. */
  manifestId?: string;
}

/** A view with nothing personal left: the order's clear part, and carrier activities at public places only. */
export function erasedView(view: ParcelView): ParcelView {
  return {
    ...view,
    order: splitPersonal(view.order).clear,
    activities: view.activities.map((a) => ({
      ...a,
      remarks: '',
      receiveBy: '',
      pod: [],
      location: publicPlaceOf(a.location),
    })),
    personalDataErased: true,
  };
}

export interface EventPosition {
  eventId: string;
  revision: number;
}

/** The statuses the platform records itself (the carriers' come with their events). */
type PlatformCode = 'DR_DR' | 'LB_GN' | 'CN_CN' | 'MF_MF';

function platformActivity(code: PlatformCode, at: Date, location: string, eventId: string): Activity {
  return {
    dateTime: formatSgt(at),
    statusCode: code,
    statusDesc: statusDescription(code),
    remarks: '',
    receiveBy: '',
    pod: [],
    location,
    eventId,
  };
}

/** Most recent first; among equal times, the later event first. Insertion keeps that order. */
function withActivity(activities: Activity[], activity: Activity): Activity[] {
  const i = activities.findIndex((a) => a.dateTime <= activity.dateTime);
  return i < 0 ? [...activities, activity] : [...activities.slice(0, i), activity, ...activities.slice(i)];
}

export function evolveParcelView(
  view: ParcelView | null,
  event: ParcelEvent,
  position: EventPosition,
): ParcelView | null {
  const next = evolveActivities(view, event, position);
  if (!next) return null;
  const { finalAt: _stale, ...rest } = next;
  const finalAt = finalAtOf(next.activities);
  return finalAt === undefined ? rest : { ...rest, finalAt };
}

function evolveActivities(view: ParcelView | null, event: ParcelEvent, position: EventPosition): ParcelView | null {
  const { eventId, revision } = position;
  if (event.type === 'ParcelRegistered') {
    const d = event.data;
    return {
      trackingNumber: d.trackingNumber,
      clientId: d.clientId,
      customTrackingNum: d.order.reference,
      revision,
      status: 'active',
      serviceType: d.serviceType,
      carrier: d.carrier,
      order: d.order,
      ...(d.lockerStation ? { lockerStation: d.lockerStation } : {}),
      partnerTrackingNo: '',
      partnerName: '',
      createdAt: formatSgt(d.registeredAt),
      ...(d.commandId ? { createdByCommand: d.commandId } : {}),
      activities: [platformActivity('DR_DR', d.registeredAt, d.order.sender.country, eventId)],
    };
  }
  if (!view) return null;
  const next = { ...view, revision };
  /** The activities with the platform's own status of this event, at the sender's country. */
  const withPlatform = (code: PlatformCode, at: Date) =>
    withActivity(view.activities, platformActivity(code, at, view.order.sender.country, eventId));
  switch (event.type) {
    case 'LabelGenerated':
      return { ...next, activities: withPlatform('LB_GN', event.data.generatedAt) };
    case 'ParcelCancelled':
      return { ...next, status: 'cancelled', activities: withPlatform('CN_CN', event.data.cancelledAt) };
    case 'ParcelManifested':
      return {
        ...next,
        manifestId: event.data.manifestId,
        activities: withPlatform('MF_MF', event.data.manifestedAt),
      };
    case 'CarrierRegistered':
      return { ...next, partnerTrackingNo: event.data.partnerTrackingNo, partnerName: event.data.partnerName };
    case 'CarrierRegistrationFailed':
      return next;
    case 'PersonalDataErased':
      return erasedView(next);
    case 'CarrierEventRecorded': {
      const d = event.data;
      const activity: Activity = {
        dateTime: formatSgt(d.eventTime),
        statusCode: d.statusCode,
        statusDesc: statusDescription(d.statusCode),
        remarks: d.remarks,
        receiveBy: d.receiveBy,
        pod: d.pod,
        location: d.location,
        eventId,
      };
      return { ...next, activities: withActivity(view.activities, activity) };
    }
    default: {
      const unhandled: never = event;
      throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
    }
  }
}
