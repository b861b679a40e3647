import { B, CarrierEventBody, Http } from '@parcel-logistics/contracts';
import { parseEventTime } from './eventTime.ts';

export interface CarrierEvent {
  partnerTrackingNo: string;
  /** The carrier's own code, kept as sent; mapped to ours by `mapCarrierCode`. */
  carrierCode: string;
  eventTime: Date;
  location: string;
  remarks: string;
  receiveBy: string;
  pod: string[];
}

export type ParsedCarrierEvent = { ok: true; event: CarrierEvent } | { ok: false; message: string };

/** A carrier's event callback body; the message names the first bad field (`<field> require|invalid`). */
export function parseCarrierEvent(body: unknown): ParsedCarrierEvent {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, message: Http.invalidJson };
  const r = CarrierEventBody.safeParse(body);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const field = String(issue.path[0]);
    const value = (body as Record<string, unknown>)[field];
    return { ok: false, message: value === undefined || value === null ? B.require(field) : B.invalid(field) };
  }
  const v = r.data;
  const eventTime = parseEventTime(v.event_time);
  if (!eventTime) return { ok: false, message: B.invalid('event_time') };
  return {
    ok: true,
    event: {
      partnerTrackingNo: v.partner_tracking_no,
      carrierCode: v.event_code,
      eventTime,
      location: v.location,
      remarks: v.remarks,
      receiveBy: v.receive_by,
      pod: v.pod,
    },
  };
}
