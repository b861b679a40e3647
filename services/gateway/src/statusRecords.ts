/** The status records of the two interfaces, from the parcel view. */
import type { StoredParcelView } from '@parcel-logistics/contracts';
import type { StatusRecordA, StatusRecordB } from '@parcel-logistics/contracts/api';
import type { AssignedStation } from '@parcel-logistics/domain';

export function statusRecordA(view: StoredParcelView): StatusRecordA {
  const last = view.activities[0];
  return {
    TrackingNumber: view.trackingNumber,
    LastStatus: last?.statusCode ?? '',
    LastStatusDateTime: last?.dateTime ?? '',
    Activities: view.activities.map((a) => ({
      StatusDateTime: a.dateTime,
      StatusCode: a.statusCode,
      StatusDesc: a.statusDesc,
      Remarks: a.remarks,
      // Reserved on interface A: always empty, even for deliveries.
      ReceiveBy: '',
    })),
  };
}

export function statusRecordB(view: StoredParcelView): StatusRecordB {
  const last = view.activities[0];
  return {
    tracking_number: view.trackingNumber,
    last_status: last?.statusCode ?? '',
    last_status_date_time: last?.dateTime ?? '',
    activities: view.activities.map((a) => ({
      status_date_time: a.dateTime,
      status_code: a.statusCode,
      status_desc: a.statusDesc,
      remarks: a.remarks,
      receive_by: a.receiveBy,
      pod: a.pod,
      location: a.location,
    })),
    partner_tracking_no: view.partnerTrackingNo,
    partner_name: view.partnerName,
    // Not in the specification's record: added when the parcel goes to a locker (locker_type A or B).
    ...(view.lockerStation ? { locker_station: lockerStationB(view.lockerStation) } : {}),
  };
}

const lockerStationB = (s: AssignedStation) => ({
  station_code: s.code,
  station_name: s.name,
  station_address: s.address,
  address_detail: s.addressDetail,
  zipcode: s.zipcode,
  distance: s.distance,
});
