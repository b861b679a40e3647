/** The parcel status view: evolve(view | null, event) -> view, guarded by stream revision by its caller. */
import { toValidOrder } from '@parcel-logistics/contracts';
import type { Activity, ParcelEvent, ParcelView } from '@parcel-logistics/contracts';
import { statusDescription } from '../statusCatalogue.ts';
import { formatSgt } from '../time.ts';

export interface EventPosition {
  eventId: string;
  revision: number;
}

function platformActivity(code: 'DR_DR' | 'LB_GN' | 'CN_CN', at: Date, location: string, eventId: string): Activity {
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
      weightUnit: d.order.weight.unit,
      // The view keeps the interface B shape its readers (status, labels) have always read.
      order: toValidOrder(d.order),
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
  switch (event.type) {
    case 'LabelGenerated':
      return {
        ...next,
        activities: withActivity(
          view.activities,
          platformActivity('LB_GN', event.data.generatedAt, view.order.sender_country, eventId),
        ),
      };
    case 'ParcelCancelled':
      return {
        ...next,
        status: 'cancelled',
        activities: withActivity(
          view.activities,
          platformActivity('CN_CN', event.data.cancelledAt, view.order.sender_country, eventId),
        ),
      };
    case 'CarrierRegistered':
      return { ...next, partnerTrackingNo: event.data.partnerTrackingNo, partnerName: event.data.partnerName };
    case 'CarrierRegistrationFailed':
      return next;
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
