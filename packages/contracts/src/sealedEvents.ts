/**
 * Personal values in stored events, sealed (docs/personal-data.md). An event that holds personal
 * values (the list of packages/domain/src/parcel/personal.ts) is stored in a sealed version: its
 * clear part as before, its personal values in one `sealed` string, encrypted with the key of its
 * stream (the parcel's, or the batch's). Read back with the key, it is the unsealed version again,
 * so deserializing and upcasting are unchanged; read back after the key was erased, it is the clear
 * part alone: the personal values are gone for good.
 *
 * | unsealed (what the domain's serializers write) | sealed (what the store holds) |
 * |---|---|
 * | `ParcelRegistered.v2` | `ParcelRegistered.v3` |
 * | `CarrierEventRecorded.v1` | `CarrierEventRecorded.v2` |
 * | `OrderBatchAccepted.v2` | `OrderBatchAccepted.v3` |
 */
import {
  PERSONAL_CARRIER_EVENT_FIELDS,
  PERSONAL_ORDER_FIELDS,
  PERSONAL_RECIPIENT_FIELDS,
  PERSONAL_SENDER_FIELDS,
  publicPlaceOf,
  splitCarrierEventPersonal,
  splitPersonal,
  withPersonal,
  type CarrierEventPersonalData,
  type OrderPersonalData,
  type ParcelOrder,
} from '@parcel-logistics/domain';
import { ORDER_FIELDS } from './orderMapping.ts';
import type { StoredEvent } from './storedEvents.ts';
import { UPCASTERS } from './upcasters.ts';

type Data = Record<string, unknown>;

/**
 * A stream's key at work: `seal` encrypts bound to `aad` (or answers undefined once the key is
 * erased: the event is stored as its clear part); `open` decrypts, or answers undefined once the key is erased.
 */
export interface StreamSeal {
  seal(plain: string, aad: string): string | undefined;
  open(sealed: string, aad: string): string | undefined;
}

interface SealedForm {
  sealedType: string;
  split(data: Data): { clear: Data; personal: unknown };
  join(clear: Data, personal: unknown): Data;
}

function orderForm(sealedType: string): SealedForm {
  return {
    sealedType,
    split(data) {
      const { clear, personal } = splitPersonal(data.order as ParcelOrder);
      return { clear: { ...data, order: clear }, personal };
    },
    join: (clear, personal) => ({
      ...clear,
      order: withPersonal(clear.order as ParcelOrder, personal as OrderPersonalData),
    }),
  };
}

const FORMS: ReadonlyMap<string, SealedForm> = new Map([
  ['ParcelRegistered.v2', orderForm('ParcelRegistered.v3')],
  [
    'CarrierEventRecorded.v1',
    {
      sealedType: 'CarrierEventRecorded.v2',
      split: (data) => splitCarrierEventPersonal(data as Data & CarrierEventPersonalData),
      join: (clear, personal) => ({ ...clear, ...(personal as CarrierEventPersonalData) }),
    },
  ],
  [
    'OrderBatchAccepted.v2',
    {
      sealedType: 'OrderBatchAccepted.v3',
      split(data) {
        const parts = (data.orders as Data[]).map((o) => splitPersonal(o.order as ParcelOrder));
        return {
          clear: { ...data, orders: (data.orders as Data[]).map((o, i) => ({ ...o, order: parts[i]!.clear })) },
          personal: parts.map((p) => p.personal),
        };
      },
      join: (clear, personal) => ({
        ...clear,
        orders: (clear.orders as Data[]).map((o, i) => ({
          ...o,
          order: withPersonal(o.order as ParcelOrder, (personal as OrderPersonalData[])[i]!),
        })),
      }),
    },
  ],
]);

const UNSEALED: ReadonlyMap<string, { type: string; form: SealedForm }> = new Map(
  [...FORMS].map(([type, form]) => [form.sealedType, { type, form }]),
);

/** Whether events of this stored type hold personal values in clear (and are sealed before they are stored). */
export const holdsPersonalData = (storedType: string): boolean => FORMS.has(storedType);

/** The sealed version events of this stored type are stored in (undefined: they hold nothing personal). */
export const sealedTypeOf = (storedType: string): string | undefined => FORMS.get(storedType)?.sealedType;

/** Whether a stored event is in a sealed version. */
export const isSealed = (storedType: string): boolean => UNSEALED.has(storedType);

/** What a stored event's `sealed` is bound to: its stream and its type, so it cannot be moved to another. */
export const sealBinding = (streamName: string, sealedType: string): string => `${streamName}|${sealedType}`;

/** The event to store: sealed when it holds personal values, as it is otherwise. */
export function sealStored(streamName: string, stored: StoredEvent, seal: StreamSeal['seal']): StoredEvent {
  const form = FORMS.get(stored.type);
  if (!form) return stored;
  const { clear, personal } = form.split(stored.data);
  const sealed = seal(JSON.stringify(personal), sealBinding(streamName, form.sealedType));
  return { type: form.sealedType, data: sealed === undefined ? clear : { ...clear, sealed } };
}

/**
 * A stored event as the serializers read it: unsealed with the stream's key, or its clear part
 * alone when that key is erased (`open` answers undefined). Events in no sealed version pass as they are.
 */
export function openStored(
  streamName: string,
  stored: { type: string; data: unknown },
  open: StreamSeal['open'],
): StoredEvent {
  const found = UNSEALED.get(stored.type);
  if (!found) return stored as StoredEvent;
  const { sealed, ...clear } = stored.data as Data;
  const plain = sealed === undefined ? undefined : open(sealed as string, sealBinding(streamName, stored.type));
  return { type: found.type, data: plain === undefined ? clear : found.form.join(clear, JSON.parse(plain)) };
}

/**
 * A stored event of an older version, written before personal values were sealed, brought to its
 * sealed version (the one-time migration of a store): upcast to the current unsealed version first.
 */
export function sealFormer(streamName: string, stored: StoredEvent, seal: StreamSeal['seal']): StoredEvent {
  let current = stored;
  for (let up = UPCASTERS.get(current.type); up; up = UPCASTERS.get(current.type))
    current = { type: up.to, data: up.up(current.data) };
  return holdsPersonalData(current.type) ? sealStored(streamName, current, seal) : stored;
}

/** The stored type an event of `type` is read as, once every upcaster has run. */
function currentTypeOf(type: string): string {
  let current = type;
  for (let up = UPCASTERS.get(current); up; up = UPCASTERS.get(current)) current = up.to;
  return current;
}

/**
 * The stored types written before sealing that hold personal values in clear, which the migration
 * seals: the unsealed versions and every older version upcast to one of them.
 */
export const FORMER_PERSONAL_TYPES: readonly string[] = [...UPCASTERS.keys(), ...FORMS.keys()].filter((type) =>
  holdsPersonalData(currentTypeOf(type)),
);

/** The body's field names of the order's personal values (ORDER_FIELDS read for the domain's list). */
const PERSONAL_BODY_FIELDS: ReadonlySet<string> = new Set(
  ORDER_FIELDS.filter(([, paths]) =>
    (typeof paths === 'string' ? [paths] : paths).some((p) => {
      const [party, field] = p.split('.');
      return (
        (party === 'recipient' && (PERSONAL_RECIPIENT_FIELDS as readonly string[]).includes(field!)) ||
        (party === 'sender' && (PERSONAL_SENDER_FIELDS as readonly string[]).includes(field!)) ||
        (PERSONAL_ORDER_FIELDS as readonly string[]).includes(p)
      );
    }),
  ).map(([api]) => api),
);
const PERSONAL_PARTY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  recipient: PERSONAL_RECIPIENT_FIELDS,
  sender: PERSONAL_SENDER_FIELDS,
};
const CARRIER_EVENT_FIELDS: ReadonlySet<string> = new Set([...PERSONAL_CARRIER_EVENT_FIELDS, 'receive_by']);

/**
 * A copy of any stored JSON of the past (a webhook body of the delivery log written before bodies
 * left personal values out) with every personal value of the one list blanked, in the body's
 * words or the domain's, at any depth; a carrier's location kept as its public place only.
 */
export function withoutPersonalValues(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return key === 'pod' ? [] : value.map((v) => withoutPersonalValues(v));
  if (value === null || typeof value !== 'object') {
    if (typeof value !== 'string') return value;
    if (key === 'location') return publicPlaceOf(value);
    return PERSONAL_BODY_FIELDS.has(key) || CARRIER_EVENT_FIELDS.has(key) || key === 'instruction' ? '' : value;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const party = PERSONAL_PARTY_FIELDS[k];
    if (party && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const blanked: Record<string, unknown> = { ...(v as Record<string, unknown>) };
      for (const f of party) if (typeof blanked[f] === 'string') blanked[f] = '';
      out[k] = withoutPersonalValues(blanked, k);
    } else out[k] = withoutPersonalValues(v, k);
  }
  return out;
}
