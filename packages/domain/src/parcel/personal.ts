/**
 * What of a parcel is personal: the one list. Every personal value is stored encrypted with the
 * parcel's own key and is gone for good once that key is erased (docs/personal-data.md). What stays
 * in clear is what tracking, routing, customs totals and labels need and what identifies no one:
 * countries, the locker station, the routing (carrier, service type),
 * weights, sizes, values, items, status codes and times.
 */
import type { ParcelOrder, Recipient, Sender } from './order.ts';
import { publicPlaceOf } from './publicPlace.ts';

/** The recipient's personal fields. */
export const PERSONAL_RECIPIENT_FIELDS = ['name', 'phone', 'address', 'postalCode', 'state', 'city', 'email'] as const;
/** The sender's personal fields. */
export const PERSONAL_SENDER_FIELDS = ['name', 'phone', 'address', 'postalCode', 'city', 'email'] as const;
/** Of the order itself: the delivery instruction ("leave it with Mdm Wong at #05-11"). */
export const PERSONAL_ORDER_FIELDS = ['instruction'] as const;
/**
 * Of a carrier's event: the location as the carrier wrote it (often a street address; its public
 * place stays in clear), its remarks (carriers write names there), who signed and the proof of delivery.
 */
export const PERSONAL_CARRIER_EVENT_FIELDS = ['location', 'remarks', 'receiveBy', 'pod'] as const;

type RecipientPersonal = Pick<Recipient, (typeof PERSONAL_RECIPIENT_FIELDS)[number]>;
type SenderPersonal = Pick<Sender, (typeof PERSONAL_SENDER_FIELDS)[number]>;

/** An order's personal values, apart from the rest of it. */
export interface OrderPersonalData {
  recipient: Partial<RecipientPersonal>;
  sender: Partial<SenderPersonal>;
  instruction?: string;
}

/** A carrier event's personal values. */
export interface CarrierEventPersonalData {
  location: string;
  remarks: string;
  receiveBy: string;
  pod: string[];
}

function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const k of keys) if (from[k] !== undefined) picked[k] = from[k];
  return picked;
}

/** A copy without `keys`, built key by key in order: `delete` would leave a slow dictionary-mode object. */
function omit<T extends object, K extends keyof T>(from: T, keys: readonly K[]): T {
  const rest: Record<string, unknown> = {};
  for (const k of Object.keys(from)) if (!(keys as readonly string[]).includes(k)) rest[k] = from[k as keyof T];
  return rest as T;
}

/**
 * The order without its personal values, and those values apart. The recipient's required strings
 * (name, phone, address) become '' in the clear part: an order whose personal data was erased keeps
 * its shape, and says so by its event (`PersonalDataErased`), not by its values.
 */
export function splitPersonal(order: ParcelOrder): { clear: ParcelOrder; personal: OrderPersonalData } {
  const personal: OrderPersonalData = {
    recipient: pick(order.recipient, PERSONAL_RECIPIENT_FIELDS),
    sender: pick(order.sender, PERSONAL_SENDER_FIELDS),
    ...(order.instruction !== undefined ? { instruction: order.instruction } : {}),
  };
  const clear: ParcelOrder = {
    ...omit(order, PERSONAL_ORDER_FIELDS),
    recipient: { ...omit(order.recipient, PERSONAL_RECIPIENT_FIELDS), name: '', phone: '', address: '' },
    sender: omit(order.sender, PERSONAL_SENDER_FIELDS),
  };
  return { clear, personal };
}

/** The order with its personal values back in place (the inverse of `splitPersonal`). */
export function withPersonal(clear: ParcelOrder, personal: OrderPersonalData): ParcelOrder {
  return {
    ...clear,
    ...(personal.instruction !== undefined ? { instruction: personal.instruction } : {}),
    recipient: { ...clear.recipient, ...personal.recipient },
    sender: { ...clear.sender, ...personal.sender },
  };
}

/** A carrier event's data without its personal values: the location kept only as a public place. */
export function splitCarrierEventPersonal<T extends CarrierEventPersonalData>(
  data: T,
): { clear: T; personal: CarrierEventPersonalData } {
  const personal: CarrierEventPersonalData = {
    location: data.location,
    remarks: data.remarks,
    receiveBy: data.receiveBy,
    pod: data.pod,
  };
  return { clear: { ...data, location: publicPlaceOf(data.location), remarks: '', receiveBy: '', pod: [] }, personal };
}
