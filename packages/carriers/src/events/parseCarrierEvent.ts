import { z } from 'zod';
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

// Carriers send null for "nothing"; it reads as the empty string.
const optionalText = (max: number) => z.string().max(max).nullish().transform((v) => v ?? '');

const schema = z.object({
  partner_tracking_no: z.string().trim().min(1).max(64),
  event_code: z.string().trim().min(1).max(64),
  event_time: z.string().max(64),
  location: optionalText(255),
  remarks: optionalText(1024),
  receive_by: optionalText(255),
  pod: z.array(z.string().max(500)).max(20).nullish().transform((v) => v ?? []),
});

/** A carrier's event callback body; the message names the first bad field (`<field> require|invalid`). */
export function parseCarrierEvent(body: unknown): ParsedCarrierEvent {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, message: 'Invalid JSON body' };
  const r = schema.safeParse(body);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const field = String(issue.path[0]);
    const value = (body as Record<string, unknown>)[field];
    return { ok: false, message: `${field} ${value === undefined || value === null ? 'require' : 'invalid'}` };
  }
  const v = r.data;
  const eventTime = parseEventTime(v.event_time);
  if (!eventTime) return { ok: false, message: 'event_time invalid' };
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
